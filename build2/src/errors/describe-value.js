/**
 * A short rendering of any value for an error message, which never throws: `JSON.stringify`
 * throws on a bigint or a cycle, and `String()` on an object without a prototype. A bad option
 * must fail with the typed error that names it, not with a TypeError from building the message.
 */
export function describeValue(value) {
    switch (typeof value) {
        case 'bigint':
            return `${value}n`;
        case 'symbol':
            return value.toString();
        case 'function':
            return `[function ${value.name || 'anonymous'}]`;
        case 'undefined':
            return 'undefined';
        case 'number':
            return String(value); // JSON.stringify(NaN) would say null
        default:
            try {
                const json = JSON.stringify(value);
                if (json !== undefined)
                    return json.length > 120 ? `${json.slice(0, 117)}...` : json;
            }
            catch {
                // a cycle, a bigint inside, or a toJSON that throws
            }
            return Object.prototype.toString.call(value);
    }
}
//# sourceMappingURL=describe-value.js.map