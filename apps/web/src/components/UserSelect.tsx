import { useDeferredValue, useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { UserSearchQuery } from '@clearplay/contract';
import { userEndpoints } from '@clearplay/contract/constants';
import { api } from '../lib/api-client.ts';

export const userSearchQueryKey = (keyword: string, roleName?: string) => ['users', 'search', { keyword, roleName }] as const;

/** GET /admin/user/search: the light look-up for pickers. */
export const searchUsers = (query: UserSearchQuery, signal?: AbortSignal) => api.call(userEndpoints.search, { query, signal });

export interface UserSelectProps extends Omit<SelectProps, 'options' | 'showSearch' | 'filterOption' | 'onSearch'> {
  /** Only users of this role (e.g. 'shop', 'inspector'). */
  roleName?: string;
  /** The value is the user's id (default) or username. */
  valueKey?: 'id' | 'username';
}

/**
 * A user picker (the "client shop" and "inspector" pickers): type to search by username or
 * nickname; the server answers a short list.
 */
export function UserSelect({ roleName, valueKey = 'id', ...rest }: UserSelectProps) {
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const { data, isFetching } = useQuery({
    queryKey: userSearchQueryKey(deferred, roleName),
    queryFn: ({ signal }) => searchUsers({ keyword: deferred || undefined, roleName, limit: 20 }, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = (data ?? []).map((user) => ({
    value: valueKey === 'id' ? user.id : user.username,
    label: user.nickname && user.nickname !== user.username ? `${user.nickname} (${user.username})` : user.username,
  }));
  return (
    <Select
      allowClear
      {...rest}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      loading={isFetching}
      options={options}
      onOpenChange={(open) => !open && setKeyword('')}
    />
  );
}
