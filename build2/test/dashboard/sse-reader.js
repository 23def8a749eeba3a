export class SseReader {
    constructor(status, controller) {
        this.status = status;
        this.controller = controller;
        this.messages = [];
        this.buffer = '';
    }
    /** Opens `url` (with `headers`); resolves once the response headers are in. */
    static async open(url, headers = {}) {
        const controller = new AbortController();
        const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
        const reader = new SseReader(response.status, controller);
        if (response.ok && response.body)
            void reader.pump(response.body);
        else
            void response.body?.cancel();
        return reader;
    }
    /** The first message from now on (or already received and not taken) that `matches`, within `timeoutMs`. */
    async next(matches, timeoutMs = 10_000, what = 'a matching message') {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const index = this.messages.findIndex(matches);
            if (index >= 0)
                return this.messages.splice(0, index + 1).pop();
            this.messages.length = 0;
            if (this.ended !== undefined)
                throw new Error(`the stream ended before ${what}: ${String(this.ended)}`);
            const left = deadline - Date.now();
            if (left <= 0)
                throw new Error(`no ${what} within ${timeoutMs} ms`);
            await new Promise((resolve) => {
                const timer = setTimeout(resolve, left);
                this.waiting = () => {
                    clearTimeout(timer);
                    resolve();
                };
            });
        }
    }
    close() {
        this.controller.abort();
    }
    async pump(body) {
        const decoder = new TextDecoder();
        try {
            for await (const chunk of body) {
                this.buffer += decoder.decode(chunk, { stream: true });
                for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
                    const block = this.buffer.slice(0, end);
                    this.buffer = this.buffer.slice(end + 2);
                    let event = 'message';
                    const data = [];
                    for (const line of block.split('\n')) {
                        if (line.startsWith('event:'))
                            event = line.slice(6).trim();
                        else if (line.startsWith('data:'))
                            data.push(line.slice(5).replace(/^ /, ''));
                    }
                    if (data.length > 0)
                        this.messages.push({ event, data: JSON.parse(data.join('\n')) });
                }
                this.waiting?.();
            }
            this.ended = 'end of stream';
        }
        catch (error) {
            this.ended = error;
        }
        this.waiting?.();
    }
}
//# sourceMappingURL=sse-reader.js.map