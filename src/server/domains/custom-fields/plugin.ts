import { CUSTOM_ENTITIES, CUSTOM_KEY_PATTERN } from '@shared/customFields';
import { customFieldsOf } from '../../engine/customFields';
import { principalOf } from '../../http/guard';
import { domainPlugin } from '../plugin';

const definition = {
  type: 'object',
  required: ['id', 'resellerId', 'entity', 'key', 'label', 'type', 'required', 'position'],
  properties: {
    id: { type: 'integer' },
    resellerId: { type: 'integer' },
    entity: { type: 'string', enum: [...CUSTOM_ENTITIES] },
    key: { type: 'string', pattern: CUSTOM_KEY_PATTERN },
    label: { type: 'string' },
    type: { type: 'string', enum: ['text', 'number', 'date', 'choice'] },
    required: { type: 'boolean' },
    minimum: { type: ['number', 'null'] },
    maximum: { type: ['number', 'null'] },
    earliest: { type: ['string', 'null'] },
    latest: { type: ['string', 'null'] },
    pattern: { type: ['string', 'null'] },
    choices: { type: ['array', 'null'], items: { type: 'string' } },
    position: { type: 'integer' },
  },
};

/**
 * The custom fields that apply to the caller's rows of an entity (its tenant's and its ancestors'), for the grid's
 * columns and filters, the forms and the CSV files. Definitions themselves are edited through the engine's calls
 * (schemas/custom-field.json). Every signed-in user reads the fields of its own rows.
 */
export default domainPlugin('custom-fields', async (app, { database }) => {
  const fields = customFieldsOf(database.db);
  // Any write of a definition in this process, by whatever code, drops the kept definitions at once.
  database.watchWrites(['custom_field'], () => fields.forget());
  app.get(
    '/portal/custom-fields/applicable/:entity',
    {
      config: { signedIn: true },
      schema: {
        tags: ['custom-fields'],
        summary: "The custom fields of an entity that apply to the caller's rows, in form order",
        params: {
          type: 'object',
          required: ['entity'],
          properties: { entity: { type: 'string', enum: [...CUSTOM_ENTITIES], errorMessage: { enum: 'validation.customField.entity' } } },
        },
        response: { 200: { type: 'array', items: definition } },
      },
    },
    async (request) => fields.forPath((request.params as { entity: (typeof CUSTOM_ENTITIES)[number] }).entity, principalOf(request).resellerPath),
  );
});
