import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';

/**
 * Who may open the dashboard (`/zk-lock`) of this example: requests from this machine only. A
 * real service would check its operators' session or token here, as its other admin pages do.
 */
@Injectable()
export class DashboardGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const address = context.switchToHttp().getRequest<{ socket: { remoteAddress?: string } }>().socket.remoteAddress ?? '';
    return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
  }
}
