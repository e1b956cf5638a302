// Whether the service e-mails the candidate: the default is no e-mail (`sendEmail: no`), and a
// candidate nobody sends the URL to never hears of the test. So invite, bulk invite and reattempt
// each say it in one line on stderr, and `emailed` in their JSON.

/** The line for one invitation (`to`: the address, when the command knows it). */
export function emailNotice(emailed: boolean, to?: string): string {
  return emailed
    ? `The service e-mails ${to ?? 'the candidate'} the invitation.`
    : 'No e-mail sent — share the URL, or use --send-email.';
}

/** The line for a bulk run (`where`: the file that holds each candidate's URL). */
export function bulkEmailNotice(emailed: boolean, where: string): string {
  return emailed
    ? 'The service e-mails each invited candidate the invitation.'
    : `No e-mail sent — share the URLs (testUrl in ${where}), or use --send-email.`;
}
