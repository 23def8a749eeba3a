/**
 * A seeded pseudo-random generator (sfc32, seeded through splitmix32): a simulation's every choice
 * comes from one of these, so that a seed fully determines a run. Not for cryptography.
 */
export class SimRandom {
    constructor(seed) {
        this.seed = seed;
        let state = seed >>> 0;
        const next = () => {
            state = (state + 0x9e3779b9) | 0;
            let z = state;
            z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
            z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
            return (z ^ (z >>> 16)) >>> 0;
        };
        this.a = next();
        this.b = next();
        this.c = next();
        this.d = next();
        for (let i = 0; i < 12; i++)
            this.float();
    }
    /** Uniform in [0, 1). */
    float() {
        const t = (((this.a + this.b) | 0) + this.d) | 0;
        this.d = (this.d + 1) | 0;
        this.a = this.b ^ (this.b >>> 9);
        this.b = (this.c + (this.c << 3)) | 0;
        this.c = (this.c << 21) | (this.c >>> 11);
        this.c = (this.c + t) | 0;
        return (t >>> 0) / 4294967296;
    }
    /** Integer in [0, n). */
    int(n) {
        return Math.floor(this.float() * n);
    }
    /** Integer in [min, max]. */
    between(min, max) {
        return min + this.int(max - min + 1);
    }
    chance(p) {
        return this.float() < p;
    }
    pick(items) {
        return items[this.int(items.length)];
    }
    /** A copy of `items` in random order (Fisher-Yates). */
    shuffle(items) {
        const copy = [...items];
        for (let i = copy.length - 1; i > 0; i--) {
            const j = this.int(i + 1);
            [copy[i], copy[j]] = [copy[j], copy[i]];
        }
        return copy;
    }
    /** A new generator whose stream depends only on this one's next value: one per concern, so adding draws to one concern does not shift another's. */
    fork() {
        return new SimRandom(this.int(2 ** 32));
    }
    /** A random UUID (version 4 layout) drawn from this generator. */
    uuid() {
        const hex = Array.from({ length: 32 }, () => this.int(16).toString(16));
        hex[12] = '4';
        hex[16] = (this.int(4) + 8).toString(16);
        const s = hex.join('');
        return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    }
}
//# sourceMappingURL=sim-random.js.map