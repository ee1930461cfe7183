/**
 * The detail screen of any entity: loads the row, shows the schema's form, and saves with the schema's create
 * or update call. The id `new` opens an empty form; after creating, the address moves to the new row.
 */
import { ErrorIcon, RefreshIcon, SearchIcon, TickIcon } from '@blueprintjs/icons';
import { Breadcrumbs, Button, Callout, H2, Intent, NonIdealState } from '@blueprintjs/core';
import { lazy, Suspense, useMemo, useState, type MouseEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import { insideTenant, mayCreateRows, protectedFields, VERSION, type EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { selectPrivileges } from '@web/core/authSlice';
import { useAppSelector } from '@web/core/hooks';
import { Loading } from '@web/ui/Loading';
import { apiErrorOf, httpStatus, type QueryError } from '@web/core/apiErrors';
import { entityEndpoints } from '@web/core/endpoints';
import { useReferenceOptionsQuery } from './referenceOptions';
import { detailPath, entityName, listPath, NEW_ID } from '@web/core/schemas';
import { rowName, usePageTitle } from './pageTitle';
import { showToast } from '@web/ui/toaster';
import { useCaller, useMayWriteRows } from '@web/core/useCaller';
import type { EntityRow } from '@web/core/types';
import { useCustomFields } from './customFields';

// RJSF and ajv are the heaviest part of the app; they load with the first form.
const EntityForm = lazy(() => import('./form/EntityForm'));

function referencesOf(schema: EntitySchema): string[] {
  // A field may also name its entity in x-ui (`ui:options.reference`), e.g. a list of ids (a profile's sponsors).
  const ui = (schema['x-ui'] ?? {}) as Record<string, { 'ui:options'?: { reference?: unknown } } | undefined>;
  const refs = Object.entries(schema.properties).flatMap(([name, p]) => {
    const reference = p['x-reference'] ?? ui[name]?.['ui:options']?.reference;
    return typeof reference === 'string' ? [reference] : [];
  });
  return [...new Set(refs)].sort();
}

const SAVE_ERROR_IDS: Record<number, string> = { 400: 'error.validation', 403: 'error.forbidden', 404: 'error.notFound', 409: 'error.conflict' };

export interface EntityDetailPageProps {
  schema: EntitySchema;
  /** Where Cancel and the back button lead when the list is not the schema's own route (a tab). */
  listAddress?: string;
  /** Asked before an update is sent, with the edited and the stored row: false keeps the form as it is, unsaved. */
  beforeUpdate?: (next: EntityRow, current: EntityRow) => Promise<boolean>;
}

export default function EntityDetailPage({ schema, listAddress, beforeUpdate }: EntityDetailPageProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const { id = NEW_ID } = useParams();
  const creating = id === NEW_ID;
  const key = schema['x-entity'].key;
  const endpoints = entityEndpoints(schema);
  // Which endpoints exist depends only on the schema, fixed for the page's life (routes key it by entity),
  // so these hooks run in the same order on every render.
  const row = endpoints.get?.useQuery(id, { skip: creating });
  const [create, createState] = endpoints.create?.useMutation() ?? [];
  const [update, updateState] = endpoints.update?.useMutation() ?? [];
  const references = useMemo(() => referencesOf(schema), [schema]);
  const grantable = useAppSelector(selectPrivileges);
  const { data: options } = useReferenceOptionsQuery(references, { skip: references.length === 0 });
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  // Somebody saved the row after it was loaded: the save was refused; reloading shows their version.
  const [stale, setStale] = useState(false);
  const caller = useCaller();
  const mayWrite = useMayWriteRows(schema);
  const custom = useCustomFields(schema);
  // A user inside the row's own tenant (an account user on its account) sees its commercial fields read-only.
  const lockedFields = useMemo(
    () => (!creating && caller && row?.data && insideTenant(schema, caller, row.data) ? protectedFields(schema) : []),
    [creating, caller, row?.data, schema],
  );

  const entity = intl.formatMessage({ id: `entity.${entityName(schema)}.single` });
  const list = listAddress ?? listPath(schema);
  const backToList = () => {
    if (list) navigate(list);
  };
  /** A plain click stays in the app's router; with a modifier key the browser opens the link's address itself. */
  const followLink = (go: () => void) => (event: MouseEvent<HTMLElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go();
  };

  const failed = (error: QueryError) => {
    const apiError = apiErrorOf(error);
    if (apiError?.code === 'STALE') {
      setStale(true);
      return;
    }
    setServerErrors(apiError?.fields ?? []);
    const status = httpStatus(error);
    const messageId = status !== undefined ? SAVE_ERROR_IDS[status] : undefined;
    const message = messageId ? intl.formatMessage({ id: messageId }) : (apiError?.message ?? intl.formatMessage({ id: 'app.error.generic' }));
    showToast({ intent: Intent.DANGER, icon: <ErrorIcon />, message: intl.formatMessage({ id: 'form.saveError' }, { message }) });
  };

  const onSubmit = async (data: EntityRow) => {
    setServerErrors([]);
    if (creating) {
      if (!create) return;
      const result = await create(data);
      if (result.error) return failed(result.error);
      showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'form.saved' }) });
      const path = detailPath(schema, String(result.data[key]));
      if (path) navigate(path, { replace: true });
      return;
    }
    if (!update) return;
    if (beforeUpdate && row?.data && !(await beforeUpdate(data, row.data))) return;
    // The version the form was loaded at: a row saved by someone else since is refused (409), not overwritten.
    const result = await update({ ...data, [key]: row?.data?.[key] ?? id, ...(row?.data?.[VERSION] !== undefined ? { [VERSION]: row.data[VERSION] } : {}) });
    if (result.error) return failed(result.error);
    showToast({ intent: Intent.SUCCESS, icon: <TickIcon />, message: intl.formatMessage({ id: 'form.saved' }) });
  };

  const loadStatus = httpStatus(row?.error);
  // 403 (another tenant's row) reads the same as 404, so the page does not confirm that a row exists.
  const notFound = creating
    ? !endpoints.create || (caller !== undefined && !mayCreateRows(schema, caller))
    : !endpoints.get || (loadStatus !== undefined && [400, 403, 404].includes(loadStatus));
  // A row is titled by its name; its id stands in only while it loads (or when it has no name).
  const title = creating
    ? intl.formatMessage({ id: 'form.create.title' }, { entity })
    : (rowName(row?.data) ?? intl.formatMessage({ id: 'form.edit.title' }, { entity, id }));
  usePageTitle(title);

  return (
    <div className="portal-page portal-detail" data-testid={`detail-${entityName(schema)}`}>
      <header className="portal-page-header">
        {/* Where the row sits: its list (a link, so it opens in a new tab too), then the row. */}
        {list && (
          <Breadcrumbs
            className="portal-breadcrumbs"
            minVisibleItems={2}
            items={[
              { text: intl.formatMessage({ id: schema.title }), href: `#${list}`, onClick: followLink(backToList) },
              { text: title, current: true },
            ]}
          />
        )}
        <H2>{title}</H2>
      </header>
      {notFound ? (
        <div data-testid="detail-not-found">
          <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="form.notFound" />} />
        </div>
      ) : row?.isError ? (
        <NonIdealState icon={<ErrorIcon size={48} />} description={<FormattedMessage id="app.error.generic" />} />
      ) : !creating && !row?.data ? (
        <Loading />
      ) : (
        <Suspense fallback={<Loading />}>
          {stale && (
            <Callout intent={Intent.WARNING} data-testid="stale-row" className="portal-stale">
              <p>
                <FormattedMessage id="error.stale" />
              </p>
              <Button
                intent={Intent.WARNING}
                icon={<RefreshIcon />}
                data-testid="stale-reload"
                onClick={async () => {
                  await row?.refetch();
                  setStale(false);
                  setServerErrors([]);
                }}
              >
                <FormattedMessage id="form.reload" />
              </Button>
            </Callout>
          )}
          <EntityForm
            schema={schema}
            formData={creating ? undefined : row?.data}
            onSubmit={onSubmit}
            submitting={Boolean(createState?.isLoading || updateState?.isLoading)}
            serverErrors={serverErrors}
            options={options}
            onCancel={backToList}
            readOnly={!creating && (!update || !mayWrite)}
            grantable={grantable ?? undefined}
            lockedFields={lockedFields}
            ownResellerId={caller?.resellerId}
            customFields={custom.fields}
          />
        </Suspense>
      )}
    </div>
  );
}
