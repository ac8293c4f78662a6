/**
 * A servlet deployment descriptor (`WEB-INF/web.xml`): which servlet serves which URL patterns.
 * - A JAX-RS servlet (Jersey, RESTEasy, CXF, or one naming a JAX-RS `Application`) serves the module's
 *   JAX-RS resources under its mapping: `/rest/*` → an `http_mount` of `/rest` over JAX-RS routes.
 * - An application's own servlet class serves its patterns: a route per pattern, any method (which of
 *   `doGet`/`doPost` it overrides is in the class, not here).
 * Framework servlets (Spring's `DispatcherServlet`, JSP, JSF, the container's default servlet) and JSP
 * files are not application routes.
 */
import type { ContractFact } from '../../facts.js';
import { JAXRS_ROUTES, moduleFolderOf, servletPatternPath } from '../shared/jvm/servlets.js';
import { child, children, textAt, type XmlElement } from './xml.js';

/** Servlet classes that dispatch to JAX-RS resources. */
const JAXRS_SERVLETS = new Set([
  'org.glassfish.jersey.servlet.ServletContainer',
  'com.sun.jersey.spi.container.servlet.ServletContainer',
  'org.jboss.resteasy.plugins.server.servlet.HttpServletDispatcher',
  'org.jboss.resteasy.plugins.server.servlet.HttpServlet30Dispatcher',
  'org.apache.cxf.jaxrs.servlet.CXFNonSpringJaxrsServlet',
  'org.apache.wink.server.internal.servlet.RestServlet',
]);
/** A servlet named after, or configured with, a JAX-RS `Application` is a JAX-RS servlet too. */
const JAXRS_APPLICATION = /^(?:javax|jakarta)\.ws\.rs\.(?:core\.)?Application$/;
/** Packages of framework and container servlets: what they serve is not declared by this mapping. */
const FRAMEWORK_PACKAGES =
  /^(?:org\.springframework|org\.apache|org\.glassfish|com\.sun|org\.jboss|org\.eclipse|javax|jakarta|com\.vaadin|io\.undertow|com\.google\.inject)\./;

interface Servlet {
  readonly name: string;
  readonly cls: string | undefined;
  readonly jaxrs: boolean;
}

function servletOf(element: XmlElement): Servlet | undefined {
  const name = textAt(element, 'servlet-name');
  if (name === undefined) return undefined;
  const cls = textAt(element, 'servlet-class');
  const params = children(element, 'init-param').map((p) => textAt(p, 'param-name') ?? '');
  const jaxrs =
    (cls !== undefined && JAXRS_SERVLETS.has(cls)) ||
    JAXRS_APPLICATION.test(name) ||
    params.some((param) => JAXRS_APPLICATION.test(param));
  return { name, cls, jaxrs };
}

/** The module a descriptor belongs to: before `src/`, else the folder holding the web application. */
function moduleOf(path: string): string {
  if (`/${path}`.includes('/src/')) return moduleFolderOf(path);
  const webapp = path.slice(0, Math.max(path.lastIndexOf('WEB-INF/') - 1, 0));
  return webapp.slice(0, Math.max(webapp.lastIndexOf('/'), 0));
}

/** Routes and JAX-RS mounts of a `web.xml`. */
export function webXmlContracts(document: XmlElement, path: string): ContractFact[] {
  const app = child(document, 'web-app');
  if (app === undefined) return [];
  const servlets = new Map<string, Servlet>();
  for (const element of children(app, 'servlet')) {
    const servlet = servletOf(element);
    if (servlet !== undefined) servlets.set(servlet.name, servlet);
  }
  const facts: ContractFact[] = [];
  const target = `folder:${moduleOf(path)}`;
  for (const mapping of children(app, 'servlet-mapping')) {
    const servlet = servlets.get(textAt(mapping, 'servlet-name') ?? '');
    if (servlet === undefined) continue;
    for (const pattern of children(mapping, 'url-pattern')) {
      if (servlet.jaxrs) {
        if (pattern.text.startsWith('*.')) continue;
        const prefix = (servletPatternPath(pattern.text) ?? '/').replace(/\/\{path\}$/, '') || '/';
        facts.push({
          kind: 'http_mount',
          prefix,
          target,
          routes: JAXRS_ROUTES,
          line: pattern.line,
          via: 'web.xml JAX-RS servlet',
        });
        continue;
      }
      if (servlet.cls === undefined || FRAMEWORK_PACKAGES.test(servlet.cls)) continue;
      const route = servletPatternPath(pattern.text);
      if (route !== undefined)
        facts.push({
          kind: 'http_route',
          method: 'ANY',
          path: route,
          line: pattern.line,
          via: 'web.xml servlet',
        });
    }
  }
  return facts;
}
