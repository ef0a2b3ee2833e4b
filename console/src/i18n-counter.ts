/** The texts of the counter links page (docs/console.md, docs/idcard.md). */
export const counterEn = {
  navCounterLinks: 'Counter links',
  counterLinksIntro: 'A counter link opens the counter page, which checks digital ID cards for one environment. It is no API key.',
  counterLinksEmpty: 'No counter links yet.',
  counterLabel: 'Label (e.g. the till)',
  counterProvider: 'e-ID',
  createCounterLink: 'Create counter link',
  counterLinkCreated: 'Open this link on the counter device. It is shown only now:',
  confirmRevokeCounter: 'Revoke the counter link {name}? Its page refuses the next card.',
};

export const counterSv: Record<keyof typeof counterEn, string> = {
  navCounterLinks: 'Disklänkar',
  counterLinksIntro: 'En disklänk öppnar disksidan, som kontrollerar digitala ID-kort för en miljö. Den är ingen API-nyckel.',
  counterLinksEmpty: 'Inga disklänkar än.',
  counterLabel: 'Namn (t.ex. kassan)',
  counterProvider: 'e-legitimation',
  createCounterLink: 'Skapa disklänk',
  counterLinkCreated: 'Öppna länken på diskens enhet. Den visas bara nu:',
  confirmRevokeCounter: 'Återkalla disklänken {name}? Sidan avvisar nästa kort.',
};
