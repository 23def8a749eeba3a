/** Bad command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
    constructor() {
        super(...arguments);
        this.name = 'UsageError';
    }
}
//# sourceMappingURL=usage-error.js.map