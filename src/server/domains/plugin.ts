/**
 * Server domains as Fastify plugins: each folder of src/server/domains exports one (its routes, and what it adds to
 * the app), and app.ts registers them by name, in order, from one list. A domain plugin is not encapsulated (Fastify's
 * `skip-override`, as fastify-plugin sets it): its hooks and decorations, such as the sign-in limits of `access`,
 * apply to the whole app, as they did when each domain registered its routes on the app directly.
 */
import type { FastifyInstance } from 'fastify';
import type { EntitySchema } from '@shared/schema';
import type { AppOptions } from '../app';
import type { Db } from '../db';
import type { Tokens } from './auth/tokens';

/** What every domain plugin is given. */
export interface DomainOptions {
  database: Db;
  schemas: EntitySchema[];
  tokens: Tokens;
  app: AppOptions;
}

export type DomainPlugin = (app: FastifyInstance, options: DomainOptions) => Promise<void>;

/** A domain's plugin, named as Fastify's plugin tree shows it. */
export function domainPlugin(name: string, register: DomainPlugin): DomainPlugin {
  const plugin = async (app: FastifyInstance, options: DomainOptions) => register(app, options);
  Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: name });
  return plugin;
}
