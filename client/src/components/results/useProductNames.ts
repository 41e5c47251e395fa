import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getProducts } from '@client/api/market';
import { useProductName } from '@client/i18n/useProductName';
import { queryClient, queryKeys } from '@client/state/query-client';

/** A product's name in the reader's language by its id (the id itself until the list is in). */
export function useProductNames(): (id: string) => string {
  const products = useQuery(
    { queryKey: queryKeys.products, queryFn: () => getProducts() },
    queryClient,
  );
  const productName = useProductName();
  const names = useMemo(
    () => new Map(products.data?.map((p) => [p.id, productName(p)]) ?? []),
    [products.data, productName],
  );
  return (id) => names.get(id) ?? id;
}
