import type { User } from './user.entity.js';

export function userView(user: User) {
  return { id: user.id, teamId: user.teamId, email: user.email, phone: user.phone, role: user.role, createdAt: user.createdAt };
}
