var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
/**
 * Who may open the dashboard (`/zk-lock`) of this example: requests from this machine only. A
 * real service would check its operators' session or token here, as its other admin pages do.
 */
let DashboardGuard = class DashboardGuard {
    canActivate(context) {
        const address = context.switchToHttp().getRequest().socket.remoteAddress ?? '';
        return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
    }
};
DashboardGuard = __decorate([
    Injectable()
], DashboardGuard);
export { DashboardGuard };
//# sourceMappingURL=dashboard.guard.js.map