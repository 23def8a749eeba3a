export {};
//# sourceMappingURL=sim-clock.js.map