export {};
//# sourceMappingURL=requests.js.map