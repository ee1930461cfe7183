/**
 * The palette itself: Blueprint's Omnibar, with the select package's styles. It is its own chunk, loaded the first
 * time the palette opens, so the shell's first load (and the sign-in screen) carries neither.
 */
import '@blueprintjs/select/lib/css/blueprint-select.css';
import './palette.css';
import { Classes, MenuItem } from '@blueprintjs/core';
import { Omnibar, type ItemRenderer } from '@blueprintjs/select';
import { useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { findSchema, entityName } from '@web/core/schemas';
import { usePrivilegesQuery, useResellerListQuery } from '@web/core/authApi';
import { visibleMenuEntries } from '../menu';
import { ROUTED_PATHS, isRoutedPath } from '../routePaths';
import { PALETTE_MATCHES, paletteSchemas, rowLabel, usePaletteSearchQuery, type PaletteItem } from './paletteTargets';

/** Waits for typing to pause before the text goes to the server. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The keyboard command palette: jumps to a screen, or to an entity found by id or name. */
export default function PaletteOmnibar({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const text = useSettled(query.trim(), 250);
  const { data: granted = [] } = usePrivilegesQuery();
  const entities = useMemo(() => paletteSchemas(granted, isRoutedPath).map(entityName), [granted]);
  const { data: matches = [] } = usePaletteSearchQuery({ text, entities }, { skip: !isOpen || !text || entities.length === 0 });
  const resellerRoute = isRoutedPath('/reseller/1');
  const { data: resellers = [] } = useResellerListQuery(undefined, { skip: !isOpen || !resellerRoute });

  const items = useMemo(() => {
    const needle = query.trim().toLocaleLowerCase();
    const screens: PaletteItem[] = visibleMenuEntries(granted, ROUTED_PATHS)
      .map((e) => ({ key: `screen:${e.id}`, label: e.messageId, translate: true, kind: 'palette.kind.screen', path: e.path }))
      .filter((i) => !needle || intl.formatMessage({ id: i.label }).toLocaleLowerCase().includes(needle));
    if (!text) return screens;
    const found: PaletteItem[] = matches.flatMap(({ entity, rows }) => {
      const schema = findSchema(entity);
      if (!schema) return [];
      const key = schema['x-entity'].key;
      return rows.map((row) => ({
        key: `${entity}:${String(row[key])}`,
        label: rowLabel(schema, row),
        translate: false,
        kind: `entity.${entity}.single`,
        path: schema['x-entity'].routes?.detail?.replace('{id}', encodeURIComponent(String(row[key]))) ?? '/',
      }));
    });
    const lower = text.toLocaleLowerCase();
    const resellerItems: PaletteItem[] = resellerRoute
      ? resellers
          .filter((r) => String(r.id) === text || r.name.toLocaleLowerCase().includes(lower))
          .slice(0, PALETTE_MATCHES)
          .map((r) => ({ key: `reseller:${r.id}`, label: `${r.name} · #${r.id}`, translate: false, kind: 'palette.kind.reseller', path: `/reseller/${r.id}` }))
      : [];
    return [...screens, ...found, ...resellerItems];
  }, [granted, matches, resellers, resellerRoute, query, text, intl]);

  const renderItem: ItemRenderer<PaletteItem> = (item, { handleClick, handleFocus, modifiers }) => (
    <MenuItem
      key={item.key}
      active={modifiers.active}
      text={item.translate ? intl.formatMessage({ id: item.label }) : item.label}
      label={intl.formatMessage({ id: item.kind })}
      onClick={handleClick}
      onFocus={handleFocus}
      roleStructure="listoption"
      data-testid={`palette-${item.key}`}
    />
  );

  return (
    <Omnibar<PaletteItem>
      isOpen={isOpen}
      onClose={() => {
        setQuery('');
        onClose();
      }}
      items={items}
      query={query}
      onQueryChange={setQuery}
      itemListPredicate={(_q, list) => list}
      itemRenderer={renderItem}
      onItemSelect={(item) => {
        setQuery('');
        onClose();
        navigate(item.path);
      }}
      resetOnSelect
      noResults={<MenuItem disabled text={intl.formatMessage({ id: 'palette.none' })} roleStructure="listoption" />}
      inputProps={{ placeholder: intl.formatMessage({ id: 'palette.placeholder' }), 'aria-label': intl.formatMessage({ id: 'palette.placeholder' }) }}
      overlayProps={{ className: Classes.OVERLAY_SCROLL_CONTAINER }}
    />
  );
}
