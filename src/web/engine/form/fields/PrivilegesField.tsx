import { Callout, Checkbox, FormGroup, Intent } from '@blueprintjs/core';
import type { FieldProps } from '@rjsf/utils';
import { useIntl } from 'react-intl';
import { PRIVILEGE_CATALOGUE, type PrivilegeItem } from '@shared/privileges';
import { formContextOf } from '../context';
import { messageOr } from '@web/core/messages';

/** What `value` holds that `grantable` does not: the privileges (or sub-privileges) saving will drop. */
export function lackedPrivileges(value: PrivilegeItem[], grantable: PrivilegeItem[]): string[] {
  return value.flatMap((item) => {
    const held = grantable.find((g) => g.privilege === item.privilege);
    if (!held) return [item.privilege];
    return item.subPrivileges.filter((s) => !held.subPrivileges.includes(s)).map((s) => `${item.privilege} / ${s}`);
  });
}

/**
 * The role editor's privilege picker: the catalogue, limited to what the editor may grant, with the
 * sub-privileges under their privilege. A role holding more than the editor is warned about, because the
 * server keeps only what the editor holds when it saves.
 */
export function PrivilegesField({ formData, onChange, registry, disabled, readonly, fieldPathId }: FieldProps<PrivilegeItem[]>) {
  const intl = useIntl();
  const grantable = formContextOf(registry).grantable ?? [];
  const value = Array.isArray(formData) ? formData : [];
  const lacked = lackedPrivileges(value, grantable);
  const offered = PRIVILEGE_CATALOGUE.filter((p) => grantable.some((g) => g.privilege === p.privilege));
  const held = (name: string) => value.find((v) => v.privilege === name);
  const locked = disabled || readonly;
  const label = (id: string, fallback: string) => messageOr(intl, id, fallback);

  const set = (next: PrivilegeItem[]) => onChange(next, fieldPathId.path);
  const togglePrivilege = (name: string, on: boolean) =>
    set(on ? [...value, { privilege: name, subPrivileges: [] }] : value.filter((v) => v.privilege !== name));
  const toggleSub = (name: string, sub: string, on: boolean) => {
    const item = held(name) ?? { privilege: name, subPrivileges: [] };
    const subs = on ? [...item.subPrivileges, sub] : item.subPrivileges.filter((s) => s !== sub);
    set([...value.filter((v) => v.privilege !== name), { privilege: name, subPrivileges: subs }]);
  };

  return (
    <FormGroup label={intl.formatMessage({ id: 'entity.role.field.privileges' })} data-testid="privileges-field">
      {lacked.length > 0 && (
        <Callout intent={Intent.WARNING} data-testid="privileges-warning">
          {intl.formatMessage({ id: 'role.privileges.lacked' }, { list: lacked.join(', ') })}
        </Callout>
      )}
      <div className="privileges-grid">
        {offered.map((p) => {
          const allowedSubs = grantable.find((g) => g.privilege === p.privilege)!.subPrivileges;
          const item = held(p.privilege);
          return (
            <div key={p.privilege} className="privileges-item">
              <Checkbox
                checked={Boolean(item)}
                disabled={locked}
                label={label(`privilege.${p.privilege}`, p.privilege)}
                onChange={(e) => togglePrivilege(p.privilege, e.currentTarget.checked)}
              />
              {item && allowedSubs.length > 0 && (
                <div className="privileges-subs">
                  {p.subPrivileges
                    .filter((s) => allowedSubs.includes(s))
                    .map((s) => (
                      <Checkbox
                        key={s}
                        checked={item.subPrivileges.includes(s)}
                        disabled={locked}
                        label={label(`privilege.sub.${s}`, s)}
                        onChange={(e) => toggleSub(p.privilege, s, e.currentTarget.checked)}
                      />
                    ))}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </FormGroup>
  );
}
