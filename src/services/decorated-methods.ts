import type { DiscoveryService, MetadataScanner } from '@nestjs/core';

/**
 * Calls `visit` for every method of every controller and provider instance of the application
 * (what the recovery explorers look at for their decorators). Request-scoped providers are left
 * out: they have no instance to call at recovery time.
 */
export function forEachProviderMethod(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  visit: (instance: Record<string, unknown>, name: string, method: (...args: unknown[]) => unknown) => void,
): void {
  for (const wrapper of [...discovery.getControllers(), ...discovery.getProviders()]) {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
    const prototype = Object.getPrototypeOf(instance) as object | null;
    if (!prototype) continue;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const method = instance[name];
      if (typeof method === 'function') visit(instance, name, method as (...args: unknown[]) => unknown);
    }
  }
}
