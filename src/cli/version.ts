declare const MESHLENS_VERSION: string | undefined;

/** Injected by the bundler; running from sources (tests) reports a development version. */
export const VERSION: string = typeof MESHLENS_VERSION === 'string' ? MESHLENS_VERSION : '0.0.0-dev';
