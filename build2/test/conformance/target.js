export {};
//# sourceMappingURL=target.js.map