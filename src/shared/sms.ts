/**
 * The length of an SMS to a SIM, as the network counts it (sms-segments-calculator): text the GSM 03.38 alphabet
 * holds travels as GSM-7, 160 characters to a message, where each of `^{}\[~]|€` takes two; any other character
 * turns the whole message into UCS-2, 70 UTF-16 code units to a message (an emoji takes two). The portal sends
 * one message, never a concatenated one: a device reading commands from its SIM may not reassemble parts.
 */
import { SegmentedMessage } from 'sms-segments-calculator';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

/** Characters of one message, by encoding. */
export const SMS_LIMITS: Record<SmsEncoding, number> = { 'GSM-7': 160, 'UCS-2': 70 };

export interface SmsLength {
  encoding: SmsEncoding;
  /** Characters as the encoding counts them (septets for GSM-7, code units for UCS-2). */
  characters: number;
  /** The most characters one message of this encoding holds. */
  limit: number;
  /** Messages the text would take. */
  segments: number;
}

export function smsLength(text: string): SmsLength {
  const message = new SegmentedMessage(text);
  const encoding = message.encodingName;
  // Code units, as the network counts: `numberOfCharacters` counts an emoji once, though it takes two in UCS-2.
  const characters = message._countCodeUnits(message.encodedChars);
  return { encoding, characters, limit: SMS_LIMITS[encoding], segments: text === '' ? 0 : message.segmentsCount };
}

/** Why a text cannot be sent as an SMS (a message id), or undefined when it can. */
export function smsTextProblem(text: string): 'validation.sms.required' | 'validation.sms.tooLong' | undefined {
  if (text.trim() === '') return 'validation.sms.required';
  // Every character takes at least one unit in either encoding, so longer text cannot fit; and measuring costs
  // time that grows faster than the text (a 30,000-character text took over a minute).
  if (text.length > SMS_LIMITS['GSM-7']) return 'validation.sms.tooLong';
  const { characters, limit } = smsLength(text);
  return characters > limit ? 'validation.sms.tooLong' : undefined;
}
