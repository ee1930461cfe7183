import { describe, expect, it } from 'vitest';
import { hashPath } from './preload';

describe('the page a hash address loads', () => {
  it('is the path before the query', () => {
    expect(hashPath('#/subscribers?searchBy=country&searchKey=DE')).toBe('/subscribers');
    expect(hashPath('#/subscriber/42')).toBe('/subscriber/42');
    expect(hashPath('#/?range=last30Days')).toBe('/');
    expect(hashPath('')).toBe('/');
    expect(hashPath('#')).toBe('/');
  });
});
