/**
 * Labs: the caller's tenant's switches of features still being tried. Features ask `useLab(key)` and hide what is
 * off; the server refuses the feature's calls all the same (403 LAB_OFF).
 */
import { labOf, type LabKey } from '@shared/labs';
import { enhancedApi } from './labsApi.gen';

export type { GetLabsApiResponse as TenantLabs } from './labsApi.gen';
export type LabRow = import('./labsApi.gen').GetLabsApiResponse['labs'][number];

export const labsApi = enhancedApi;
export const { useGetLabsQuery, usePutLabsByLabMutation } = labsApi;

/**
 * Whether a lab is on for the signed-in user's tenant. Until the switches arrive (or when they cannot be read) it
 * answers the lab's default, so a screen is not held back; the server has the last word.
 */
export function useLab(key: LabKey): boolean {
  // A screen opened a while after the last read asks again, so a switch made elsewhere shows within half a minute.
  const { data } = useGetLabsQuery(undefined, { refetchOnMountOrArgChange: 30 });
  return data?.labs.find((l) => l.key === key)?.enabled ?? labOf(key).defaultEnabled;
}
