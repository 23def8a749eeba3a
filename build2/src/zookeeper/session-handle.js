export {};
//# sourceMappingURL=session-handle.js.map