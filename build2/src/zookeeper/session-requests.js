export {};
//# sourceMappingURL=session-requests.js.map