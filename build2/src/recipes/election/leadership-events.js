export {};
//# sourceMappingURL=leadership-events.js.map