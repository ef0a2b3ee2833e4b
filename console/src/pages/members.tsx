import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api';
import { formatTime, useText } from '../i18n';
import { Confirm, ErrorMessage } from './shared';

interface Member {
  id: string;
  email: string | null;
  phone: string | null;
  role: 'owner' | 'member';
  status: 'invited' | 'joined';
  createdAt: string;
}

const nameOf = (member: Member) => member.email ?? member.phone ?? member.id;

/** The team's members and invitations; owners invite one by e-mail or phone and remove one (never themselves). */
export function MembersPage({ selfId }: { selfId: string }) {
  const { t, language } = useText();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [contact, setContact] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const load = () => call<Member[]>('GET', '/api/v1/members').then(setMembers, setError);
  useEffect(() => void load(), []);
  // Only owners add and remove (docs/console.md, "Members"); the service refuses anyone else anyway.
  const owner = members?.some((member) => member.id === selfId && member.role === 'owner') ?? false;

  const add = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const value = contact.trim();
    // A leading + is a phone number (E.164); anything else is taken as an e-mail address.
    const body = value.startsWith('+') ? { phone: value.replace(/[\s-]/g, '') } : { email: value };
    try {
      const added = await call<Member>('POST', '/api/v1/members', body);
      setContact('');
      setNotice(t('memberAdded', { name: nameOf(added) }));
      await load();
    } catch (e) {
      setError(e as ApiError);
    }
  };

  const remove = async (id: string) => {
    setConfirming(null);
    setError(null);
    setNotice(null);
    await call('DELETE', `/api/v1/members/${id}`).catch(setError);
    await load();
  };

  return (
    <section>
      <h1>{t('members')}</h1>
      <ErrorMessage error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t('members')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('contact')}</th>
              <th scope="col">{t('role')}</th>
              <th scope="col">{t('memberStatus')}</th>
              <th scope="col">{t('created')}</th>
              {owner && <th scope="col">{t('actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {members?.map((member) => (
              <tr key={member.id} data-member={nameOf(member)}>
                <th scope="row">
                  {nameOf(member)}
                  {member.email && member.phone ? ` · ${member.phone}` : ''}
                  {member.id === selfId ? ` (${t('you')})` : ''}
                </th>
                <td>{t(member.role === 'owner' ? 'roleOwner' : 'roleMember')}</td>
                <td>{t(member.status === 'joined' ? 'statusJoined' : 'statusInvited')}</td>
                <td>{formatTime(language, member.createdAt)}</td>
                {owner && (
                  <td>
                    {member.id === selfId ? (
                      t('none')
                    ) : confirming === member.id ? (
                      <Confirm
                        question={t('confirmRemove', { name: nameOf(member) })}
                        yes={t('yesRemove')}
                        onYes={() => void remove(member.id)}
                        onNo={() => setConfirming(null)}
                      />
                    ) : (
                      <button type="button" class="danger" onClick={() => setConfirming(member.id)}>
                        {t('remove')} <span class="visually-hidden">{nameOf(member)}</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {owner && (
        <form class="panel" onSubmit={(e) => void add(e)}>
          <h2>{t('addMember')}</h2>
          <label>
            {t('contactHelp')}
            <input value={contact} required autoComplete="off" onInput={(e) => setContact(e.currentTarget.value)} />
          </label>
          <button type="submit">{t('add')}</button>
        </form>
      )}
    </section>
  );
}
