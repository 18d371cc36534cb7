import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { IS_ADMIN_ROUTE, IS_DASHBOARD_ROUTE, IS_PUBLIC, REQUIRED_SCOPES } from '../../src/auth/route-access.decorators';

export interface RegisteredRoute {
  method: string;
  path: string;
  requiredScopes: string[];
  isPublic: boolean;
  isAdmin: boolean;
  /** The dashboard app's routes (/dashboard/api/): authorised by the session guard. */
  isDashboard: boolean;
}

function joinPath(...parts: string[]): string {
  const joined = parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment.length > 0)
    .join('/');
  return `/${joined}`;
}

function pathsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}

/**
 * Every controller route Nest registered, with the access metadata the global guards read
 * (the same Reflector lookups: handler first, then class).
 */
export function registeredRoutes(app: INestApplication): RegisteredRoute[] {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const routes: RegisteredRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const { instance, metatype } = wrapper;
    if (!instance || !metatype) continue;
    const controllerPaths = pathsOf(Reflect.getMetadata(PATH_METADATA, metatype) as string | string[] | undefined);
    const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[methodName] as (...args: unknown[]) => unknown;
      const routePath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (routePath === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const targets = [handler, metatype];
      const requiredScopes = reflector.getAllAndOverride<string[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
      const isPublic = reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true;
      const isAdmin = reflector.getAllAndOverride<boolean | undefined>(IS_ADMIN_ROUTE, targets) === true;
      const isDashboard = reflector.getAllAndOverride<boolean | undefined>(IS_DASHBOARD_ROUTE, targets) === true;
      for (const controllerPath of controllerPaths) {
        for (const handlerPath of pathsOf(routePath)) {
          routes.push({ method, path: joinPath(controllerPath, handlerPath), requiredScopes, isPublic, isAdmin, isDashboard });
        }
      }
    }
  }
  return routes.sort((left, right) => `${left.path} ${left.method}`.localeCompare(`${right.path} ${right.method}`));
}

export function describeAccess(route: RegisteredRoute): string {
  const access: string[] = [];
  if (route.requiredScopes.length > 0) access.push(route.requiredScopes.join(' + '));
  if (route.isPublic) access.push('public');
  if (route.isAdmin) access.push('admin');
  if (route.isDashboard) access.push('dashboard');
  return access.length > 0 ? access.join(' & ') : 'NONE (denied by default)';
}
