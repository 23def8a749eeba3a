import { InvalidOptionsError } from './invalid-options.error.js';
/**
 * Throws `InvalidOptionsError` for the first key of `options` that is not in `known`: a typo
 * (`sessionTimeout` for `sessionTimeoutMs`) or an option of another version would otherwise be
 * ignored without a word, and its default used instead. The message names the key and the
 * nearest known one, or lists the known ones when none is near. `prefix` says where the object
 * sits (`election.`, `auth[0].`); `hints` says more about a key that belongs elsewhere.
 */
export function refuseUnknownKeys(options, known, prefix = '', hints = {}) {
    for (const key of Object.keys(options)) {
        if (known.includes(key))
            continue;
        const field = `${prefix}${key}`;
        const nearest = nearestKey(key, known);
        const advice = hints[key] ?? (nearest === undefined ? `known options: ${known.join(', ')}` : `did you mean '${prefix}${nearest}'?`);
        throw new InvalidOptionsError(field, `unknown option '${field}'; ${advice}`);
    }
}
/**
 * The known key closest to `key` (case aside), if it is close enough to be what was meant: a few
 * edits (a third of the name, at least 2: `sessionTimeout` -> `sessionTimeoutMs`, not
 * `retryPolicy` -> `root`), or the start of the name (`timeline` -> `timelineSize`).
 */
function nearestKey(key, known) {
    const lower = key.toLowerCase();
    let best;
    for (const candidate of known) {
        const other = candidate.toLowerCase();
        const abbreviated = Math.min(lower.length, other.length) >= 3 && (other.startsWith(lower) || lower.startsWith(other));
        const distance = editDistance(lower, other);
        if ((abbreviated || distance <= Math.max(2, Math.floor(key.length / 3))) && (best === undefined || distance < best.distance))
            best = { key: candidate, distance };
    }
    return best?.key;
}
/** Levenshtein distance, with a swap of two neighbours counting as one edit (optimal string alignment). */
function editDistance(a, b) {
    const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i += 1) {
        for (let j = 1; j <= b.length; j += 1) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                d = Math.min(d, rows[i - 2][j - 2] + 1);
            rows[i][j] = d;
        }
    }
    return rows[a.length][b.length];
}
//# sourceMappingURL=known-keys.js.map