import 'reflect-metadata';

/**
 * Copies every reflect-metadata entry of `from` onto `to`. A wrapping method decorator must do
 * this so that decorators applied before it (e.g. `@Cron` below `@WithLock`) stay visible on
 * the wrapper, whichever order they are written in.
 */
export function copyMetadata(from: object, to: object): void {
  for (const key of Reflect.getMetadataKeys(from)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, from), to);
  }
}

/** Names a decorated method in error messages: `Class.method`. */
export function describeMethod(target: object, key: string | symbol): string {
  const owner = typeof target === 'function' ? target.name : target.constructor.name;
  return `${owner}.${String(key)}`;
}
