import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** An MSISDN (digits of an E.164 number) as people write it internationally: +46 70 174 06 05. */
export function formatMsisdn(msisdn: string): string {
  return parsePhoneNumberFromString(`+${msisdn}`)?.formatInternational() ?? `+${msisdn}`;
}
