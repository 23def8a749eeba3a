export {};
//# sourceMappingURL=inspected-node.js.map