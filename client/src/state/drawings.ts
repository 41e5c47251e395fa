import { useMutation, useQuery } from '@tanstack/react-query';
import {
  addDrawing,
  clearDrawings,
  getDrawings,
  removeDrawing,
  type ChartDrawing,
  type NewDrawing,
} from '@client/api/drawings';
import { ApiError } from '@client/api/client';
import { queryClient, queryKeys } from './query-client';
import { useIsLoggedIn } from './session';

const none: readonly ChartDrawing[] = [];

/**
 * The signed-in user's drawings on a product's chart, kept on the server: another device's
 * change arrives as a `drawings` event and reads them again (query-bridge.ts). A guest has none.
 * Each change shows at once and takes the server's word when it answers; a refusal puts the
 * list back and is handed to `onError` (a drawing already there is no error: the list is read).
 */
export function useDrawings(product: string, onError?: (error: unknown) => void) {
  const loggedIn = useIsLoggedIn();
  const key = queryKeys.drawings(product);
  const query = useQuery(
    { queryKey: key, queryFn: () => getDrawings(product), enabled: loggedIn },
    queryClient,
  );
  const optimistic = async (change: (list: readonly ChartDrawing[]) => ChartDrawing[]) => {
    await queryClient.cancelQueries({ queryKey: key });
    const before = queryClient.getQueryData<ChartDrawing[]>(key);
    queryClient.setQueryData<ChartDrawing[]>(key, change(before ?? []));
    return { before };
  };
  const settle = {
    onError: (error: unknown, _vars: unknown, context?: { before?: ChartDrawing[] }) => {
      queryClient.setQueryData(key, context?.before);
      if (!(error instanceof ApiError && error.code === 'DRAWING_EXISTS')) onError?.(error);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  };
  const add = useMutation(
    {
      mutationFn: (draft: Omit<NewDrawing, 'product'>) => addDrawing({ ...draft, product }),
      onMutate: (draft) =>
        optimistic((list) => [
          ...list,
          { ...draft, id: `pending-${Date.now()}`, product, createdAt: Date.now() },
        ]),
      ...settle,
    },
    queryClient,
  );
  const remove = useMutation(
    {
      mutationFn: (id: string) => removeDrawing(id),
      onMutate: (id) => optimistic((list) => list.filter((d) => d.id !== id)),
      ...settle,
    },
    queryClient,
  );
  const clear = useMutation(
    {
      mutationFn: () => clearDrawings(product),
      onMutate: () => optimistic(() => []),
      ...settle,
    },
    queryClient,
  );
  return {
    drawings: (loggedIn && query.data) || none,
    loggedIn,
    add: (draft: Omit<NewDrawing, 'product'>) => add.mutate(draft),
    remove: (id: string) => remove.mutate(id),
    clear: () => clear.mutate(),
  };
}
