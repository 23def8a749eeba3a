import { CorruptStateError } from '../../errors/corrupt-state.error.js';
/** The record as stored. */
export function encode(record) {
    return Buffer.from(JSON.stringify(record));
}
/** The record in `data` of the znode at `path`; malformed: `CorruptStateError`. */
export function parseRecord(path, data) {
    let value;
    try {
        value = JSON.parse(data.toString('utf8'));
    }
    catch {
        throw new CorruptStateError(path, 'not JSON');
    }
    const record = value;
    if (record === null ||
        typeof record !== 'object' ||
        (record.state !== 'ready' && record.state !== 'dirty') ||
        typeof record.token !== 'string' ||
        !/^\d+$/.test(record.token) ||
        typeof record.holder !== 'string' ||
        typeof record.since !== 'number') {
        throw new CorruptStateError(path, 'not a ready-state record');
    }
    return record;
}
//# sourceMappingURL=ready-record.js.map