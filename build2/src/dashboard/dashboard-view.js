export {};
//# sourceMappingURL=dashboard-view.js.map