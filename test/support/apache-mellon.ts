// Apache httpd with mod_auth_mellon from Debian's packages (`.ci/run` installs them) as a real SAML
// service provider in front of a page: a child process on a free port with its own configuration,
// never the system service (docs/saml.md, "Tests").
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

/** Whether Apache and mod_auth_mellon are here; else the reason on stderr and the test is skipped. */
export function mellonAvailable(): boolean {
  if (existsSync(APACHE) && existsSync(join(MODULES, 'mod_auth_mellon.so'))) return true;
  process.stderr.write(
    '[tests] apache2 or mod_auth_mellon not found: the Apache SAML test is skipped; apt-get install apache2 libapache2-mod-auth-mellon.\n',
  );
  return false;
}

export interface MellonSp {
  baseUrl: string;
  entityId: string;
  acsUrl: string;
  output(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A protected page at `/` that shows the NameID and the personal number mod_auth_mellon received;
 * the IdP is the front's metadata, the SP's key and certificate the test's.
 */
export async function startMellonSp(options: { port: number; idpMetadata: string; spKey: string; spCert: string }): Promise<MellonSp> {
  const dir = await mkdtemp(join(tmpdir(), 'eid-mellon-'));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const entityId = `${baseUrl}/mellon/metadata`;
  // Apache's children run as daemon: the directory and files must be readable by it (test keys only).
  await chmod(dir, 0o755);
  await mkdir(join(dir, 'www'));
  await writeFile(join(dir, 'www', 'index.shtml'), 'Protected: <!--#echo var="MELLON_NAME_ID" --> <!--#echo var="PNR" -->\n');
  await writeFile(join(dir, 'mime.types'), '');
  await writeFile(join(dir, 'idp.xml'), options.idpMetadata);
  await writeFile(join(dir, 'sp.key'), options.spKey, { mode: 0o644 });
  await writeFile(join(dir, 'sp.crt'), options.spCert);
  await writeFile(
    join(dir, 'httpd.conf'),
    [
      `ServerRoot ${dir}`,
      `ServerName 127.0.0.1`,
      `Listen 127.0.0.1:${options.port}`,
      `PidFile ${dir}/httpd.pid`,
      `ErrorLog ${dir}/error.log`,
      'LogLevel warn auth_mellon:info',
      'User daemon',
      'Group daemon',
      ...['mpm_event', 'authz_core', 'authz_user', 'authn_core', 'mime', 'dir', 'include', 'setenvif'].map(
        (name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`,
      ),
      `LoadModule auth_mellon_module ${MODULES}/mod_auth_mellon.so`,
      `TypesConfig ${dir}/mime.types`,
      `DocumentRoot ${dir}/www`,
      // mellon's cookie test is SameSite=None, which Chromium drops without Secure: the test runs on http.
      'SetEnvIf Request_URI . MELLON_DISABLE_SAMESITE=1',
      'DirectoryIndex index.shtml',
      'AddType text/html .shtml',
      'AddOutputFilter INCLUDES .shtml',
      `<Directory ${dir}/www>`,
      '  Options +Includes',
      '</Directory>',
      '<Location />',
      '  AuthType Mellon',
      '  MellonEnable auth',
      '  Require valid-user',
      `  MellonSPentityId "${entityId}"`,
      `  MellonSPPrivateKeyFile ${dir}/sp.key`,
      `  MellonSPCertFile ${dir}/sp.crt`,
      `  MellonIdPMetadataFile ${dir}/idp.xml`,
      '  MellonEndpointPath /mellon',
      '  MellonSecureCookie Off',
      '  MellonAuthnContextClassRef "http://id.elegnamnden.se/loa/1.0/loa3"',
      '  MellonSetEnvNoPrefix PNR urn:oid:1.2.752.29.4.13',
      '</Location>',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let startOutput = '';
  child.stdout?.on('data', (chunk: Buffer) => (startOutput += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (startOutput += chunk.toString()));
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const readLog = async () => `${startOutput}${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`apache2 exited at start:\n${await readLog()}`);
    try {
      await fetch(`${baseUrl}/mellon/metadata`, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`apache2 did not listen:\n${await readLog()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    baseUrl,
    entityId,
    acsUrl: `${baseUrl}/mellon/postResponse`,
    output: readLog,
    stop: async () => {
      process.off('exit', reap);
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      // Apache's workers may hold the pipes a moment longer: they are not the test's to wait for.
      child.stdout?.destroy();
      child.stderr?.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
