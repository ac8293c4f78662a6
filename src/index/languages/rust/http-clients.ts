/**
 * Rust HTTP clients as data: the client types whose request builders send requests (`client.get(url)`,
 * `client.request(Method::POST, url)`, then `.send()`), and the crate functions that send one directly
 * (`reqwest::get(url)`). Adding a library is an entry here plus golden fixtures.
 */
import type { HttpLibrary } from './values.js';

/** Request-builder methods named after their HTTP method (`client.post(url)`); `request(method, url)` besides. */
export const HTTP_VERBS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'trace'];

/** Client type paths and the library each belongs to. */
export const CLIENT_PATHS: readonly (readonly [RegExp, HttpLibrary])[] = [
  [/^reqwest::(blocking::)?Client$/, 'reqwest'],
  // awc is actix-web's client; actix-web 2 re-exported it as `actix_web::client::Client`.
  [/^(awc|actix_web::client)::Client$/, 'awc'],
];

/** Crate functions that send a GET right away: `reqwest::get(url)`, `reqwest::blocking::get(url)`. */
export const GET_FUNCTIONS: readonly RegExp[] = [/^reqwest(::blocking)?$/];
