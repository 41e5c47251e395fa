import { useMutation, useQuery } from '@tanstack/react-query';
import { getFavourites, setFavourite, type Favourites } from '@client/api/market';
import { queryClient, queryKeys } from './query-client';
import { useIsLoggedIn } from './session';

const none: readonly string[] = [];

/**
 * The signed-in user's favourite products, kept on the server (the same on every device and
 * after a reinstall). A guest has none. `toggle` shows the change at once and takes the server's
 * list when it answers; a refusal puts the list back and is handed to `onError` (to say why).
 */
export function useFavourites(onError?: (error: unknown) => void): {
  ids: readonly string[];
  isFavourite: (id: string) => boolean;
  toggle: (id: string) => void;
} {
  const loggedIn = useIsLoggedIn();
  const query = useQuery(
    { queryKey: queryKeys.favourites, queryFn: getFavourites, enabled: loggedIn },
    queryClient,
  );
  const mutation = useMutation(
    {
      mutationFn: ({ id, on }: { id: string; on: boolean }) => setFavourite(id, on),
      onMutate: async ({ id, on }) => {
        await queryClient.cancelQueries({ queryKey: queryKeys.favourites });
        const before = queryClient.getQueryData<Favourites>(queryKeys.favourites);
        const list = (before?.products ?? []).filter((p) => p !== id);
        queryClient.setQueryData<Favourites>(queryKeys.favourites, {
          products: on ? [...list, id] : list,
        });
        return { before };
      },
      onSuccess: (answer) => queryClient.setQueryData(queryKeys.favourites, answer),
      onError: (error, _vars, context) => {
        queryClient.setQueryData(queryKeys.favourites, context?.before);
        onError?.(error);
      },
    },
    queryClient,
  );
  const ids = (loggedIn && query.data?.products) || none;
  return {
    ids,
    isFavourite: (id) => ids.includes(id),
    toggle: (id) => mutation.mutate({ id, on: !ids.includes(id) }),
  };
}

/** `products` with the favourites first, in the order marked; the rest keep their order. */
export function favouritesFirst<T extends { id: string }>(
  products: readonly T[],
  favourites: readonly string[],
): T[] {
  if (!favourites.length) return [...products];
  const rank = (id: string) => {
    const i = favourites.indexOf(id);
    return i === -1 ? favourites.length : i;
  };
  return products
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p.id) - rank(b.p.id) || a.i - b.i)
    .map(({ p }) => p);
}
