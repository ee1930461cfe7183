/**
 * A reseller's account and settings (`#/services/{id}`): its accent colour and form styles, read with its logo and
 * two-factor state. Anyone who sees the reseller reads them (an account user its own reseller); a reseller user with
 * the Resellers privilege writes those of its own reseller and of the resellers below it. None of these fields is a
 * commercial term (`x-protected` in the reseller schema), so a reseller's own users may change them.
 */
import { sql, type Kysely } from 'kysely';
import { FORM_FONT_NAMES, HEX_COLOUR_PATTERN, MAX_RADIUS_PX, type FormStyles } from '@shared/formStyles';
import type { Database } from '../../db/types';
import { forbidden } from '../../http/errors';
import { principalOf } from '../../http/guard';
import { idParams, INT_MIN } from '../../http/input';
import { domainPlugin } from '../plugin';
import { resellerInSubtree } from '../resellers/subtree';

const tags = ['resellers'];

const hex = (description: string) => ({ type: 'string', maxLength: 7, pattern: HEX_COLOUR_PATTERN, errorMessage: 'validation.colour.hex', description });

export const formStylesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['primaryHex', 'secondaryHex', 'font', 'radiusPx'],
  properties: {
    primaryHex: hex('Buttons, links and focus: #rrggbb'),
    secondaryHex: hex('Headings and secondary accents: #rrggbb'),
    font: { type: 'string', enum: FORM_FONT_NAMES, errorMessage: 'validation.font.invalid', description: 'A font of the safe list' },
    radiusPx: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_RADIUS_PX,
      'x-rule': 'range',
      errorMessage: 'validation.radius.invalid',
      description: 'Corner radius in px',
    },
  },
  errorMessage: { required: 'validation.required', additionalProperties: 'validation.unknownField' },
};

const settingsSchema = {
  type: 'object',
  required: ['resellerId', 'name', 'accentColorHex', 'formStyles', 'requireTwoFactor', 'ownReseller', 'mayEdit'],
  properties: {
    resellerId: { type: 'integer' },
    name: { type: 'string' },
    accentColorHex: { type: ['string', 'null'], description: 'The accent of the shell, #rrggbb; null: the default' },
    formStyles: { ...formStylesSchema, type: ['object', 'null'], description: 'Null: the portal’s own look' },
    requireTwoFactor: { type: 'boolean', description: 'Whether the users of the reseller and below it must use a second factor' },
    ownReseller: { type: 'boolean', description: "Whether it is the caller's own reseller (its logo is changed from this page)" },
    mayEdit: { type: 'boolean', description: 'Whether the caller may save these settings' },
  },
};

type Settings = { accentColorHex?: string | null; formStyles?: FormStyles | null };

async function settingsOf(db: Kysely<Database>, id: number) {
  return db.selectFrom('reseller').select(['id', 'name', 'accentColorHex', 'formStyles', 'requireTwoFactor']).where('id', '=', id).executeTakeFirstOrThrow();
}

export default domainPlugin('reseller-settings', async (app, { database }) => {
  const { db } = database;
  const params = idParams(['id'], { min: INT_MIN });
  const mayEdit = (p: ReturnType<typeof principalOf>) => p.accountId === null && (p.isAdmin || p.privileges.some((x) => x.privilege === 'Resellers'));
  const answer = async (request: Parameters<typeof principalOf>[0], id: number) => {
    const p = principalOf(request);
    const row = await settingsOf(db, id);
    const styles = typeof row.formStyles === 'string' ? JSON.parse(row.formStyles) : row.formStyles;
    return {
      resellerId: row.id,
      name: row.name,
      accentColorHex: row.accentColorHex,
      formStyles: (styles as FormStyles | null) ?? null,
      requireTwoFactor: row.requireTwoFactor,
      ownReseller: p.resellerId === row.id,
      mayEdit: mayEdit(p),
    };
  };

  app.get(
    '/portal/resellers/:id/settings',
    {
      config: { signedIn: true },
      schema: { tags, summary: "A reseller's account settings: accent colour, form styles and two-factor rule", params, response: { 200: settingsSchema } },
    },
    async (request) => answer(request, await resellerInSubtree(db, principalOf(request), (request.params as { id: number }).id)),
  );

  app.put(
    '/portal/resellers/:id/settings',
    {
      config: { privilege: 'Resellers' },
      schema: {
        tags,
        summary: "Changes a reseller's accent colour and form styles (the fields the body sends)",
        params,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            accentColorHex: { ...hex('The accent of the shell; null: the default'), type: ['string', 'null'] },
            formStyles: { ...formStylesSchema, type: ['object', 'null'] },
          },
          errorMessage: { additionalProperties: 'validation.unknownField' },
        },
        response: { 200: settingsSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const id = await resellerInSubtree(db, principal, (request.params as { id: number }).id);
      if (!mayEdit(principal)) throw forbidden();
      const body = request.body as Settings;
      const set: Record<string, unknown> = {};
      if ('accentColorHex' in body) set.accentColorHex = body.accentColorHex?.toLowerCase() ?? null;
      if ('formStyles' in body)
        set.formStyles = body.formStyles
          ? sql`${JSON.stringify({ ...body.formStyles, primaryHex: body.formStyles.primaryHex.toLowerCase(), secondaryHex: body.formStyles.secondaryHex.toLowerCase() })}::jsonb`
          : null;
      if (Object.keys(set).length) await db.updateTable('reseller').set(set).where('id', '=', id).execute();
      return answer(request, id);
    },
  );
});
