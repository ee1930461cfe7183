/**
 * The reseller logo. An <img> cannot send the bearer token, so the logo is fetched as a blob and shown through an
 * object URL, which is released when the cache entry is replaced or dropped.
 */
import { api } from './api';

/** The server refuses logos larger than this ("less than 4 MB"). */
export const LOGO_MAX_BYTES = 4 * 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'];
export const LOGO_ACCEPT = '.png,.jpg,.jpeg,.svg,image/png,image/jpeg,image/svg+xml';

let shownUrl: string | undefined;

const logoTagged = api.enhanceEndpoints({ addTagTypes: ['Logo'] });

export const logoApi = logoTagged.injectEndpoints({
  endpoints: (build) => ({
    /** The logo's object URL, or null while no reseller up the tree has one (the server answers 204). */
    resellerLogo: build.query<string | null, void>({
      query: () => ({
        url: '/user/logo',
        responseHandler: async (response: Response) => {
          if (response.status === 204) return null;
          if (response.ok) return URL.createObjectURL(await response.blob());
          const text = await response.text();
          try {
            return JSON.parse(text) as unknown;
          } catch {
            return text;
          }
        },
      }),
      providesTags: ['Logo'],
      // The app has one store, hence one logo URL at a time: the one shown replaces and releases the previous one.
      async onQueryStarted(_arg, { queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (shownUrl && shownUrl !== data) URL.revokeObjectURL(shownUrl);
          shownUrl = data ?? undefined;
        } catch {
          // The top bar falls back to the default image.
        }
      },
      async onCacheEntryAdded(_arg, { cacheEntryRemoved }) {
        await cacheEntryRemoved;
        if (shownUrl) URL.revokeObjectURL(shownUrl);
        shownUrl = undefined;
      },
    }),
    uploadLogo: build.mutation<void, File>({
      query: (file) => ({
        url: '/user/logo',
        method: 'PUT',
        body: file,
        // The server judges the content, not this header; a file the browser cannot type is still sent as an image.
        headers: { 'Content-Type': LOGO_TYPES.includes(file.type) ? file.type : 'image/png' },
      }),
      invalidatesTags: ['Logo'],
    }),
    removeLogo: build.mutation<void, void>({
      query: () => ({ url: '/user/logo', method: 'DELETE' }),
      invalidatesTags: ['Logo'],
    }),
  }),
});

export const { useResellerLogoQuery, useUploadLogoMutation, useRemoveLogoMutation } = logoApi;
