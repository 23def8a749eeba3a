/** Reads a server-sent event stream over fetch, for tests: each message with its `event` name and parsed `data`. */
export interface SseMessage {
  readonly event: string;
  readonly data: unknown;
}

export class SseReader {
  private readonly messages: SseMessage[] = [];
  private waiting: (() => void) | undefined;
  private buffer = '';
  private ended: unknown;
  private constructor(
    readonly status: number,
    private readonly controller: AbortController,
  ) {}

  /** Opens `url` (with `headers`); resolves once the response headers are in. */
  static async open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    const controller = new AbortController();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    const reader = new SseReader(response.status, controller);
    if (response.ok && response.body) void reader.pump(response.body);
    else void response.body?.cancel();
    return reader;
  }

  /** The first message from now on (or already received and not taken) that `matches`, within `timeoutMs`. */
  async next(matches: (message: SseMessage) => boolean, timeoutMs = 10_000, what = 'a matching message'): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex(matches);
      if (index >= 0) return this.messages.splice(0, index + 1).pop()!;
      this.messages.length = 0;
      if (this.ended !== undefined) throw new Error(`the stream ended before ${what}: ${String(this.ended)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.controller.abort();
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length > 0) this.messages.push({ event, data: JSON.parse(data.join('\n')) });
        }
        this.waiting?.();
      }
      this.ended = 'end of stream';
    } catch (error) {
      this.ended = error;
    }
    this.waiting?.();
  }
}
