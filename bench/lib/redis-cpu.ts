import type { Redis } from 'ioredis';

/** Redis's own CPU counter (INFO cpu), in ms: the server is shared, so other clients' work counts too. */
export async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}
