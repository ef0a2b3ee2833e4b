import type { User } from './user.entity.js';

export function userView(user: User) {
  return { id: user.id, teamId: user.teamId, email: user.email, phone: user.phone, createdAt: user.createdAt };
}
