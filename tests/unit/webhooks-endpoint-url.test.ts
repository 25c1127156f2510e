/**
 * Which endpoint URLs are refused, and why (docs/webhooks.md#safety): literal addresses other than
 * globally reachable unicast in every spelling the URL parser accepts, IPv4 carried in IPv6 included,
 * local names, http, credentials; development's one exception for http://127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { checkEndpointUrl } from '../../worker/webhooks/endpoint-url.ts';

const refused = (url: string, env: 'development' | 'production' = 'production') => {
  const checked = checkEndpointUrl(url, env);
  return checked.ok ? '' : checked.reason;
};

describe('endpoint URLs', () => {
  it.each([
    ['https://hooks.example.com/lander', 'https://hooks.example.com/lander'],
    ['https://hooks.example.com:8443/a?b=c#frag', 'https://hooks.example.com:8443/a?b=c'],
    ['https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
    ['https://[2606:4700::1111]/hook', 'https://[2606:4700::1111]/hook'],
  ])('takes %s', (url, normalised) => {
    expect(checkEndpointUrl(url, 'production')).toEqual({ ok: true, url: normalised });
  });

  it.each([
    ['http://hooks.example.com/', 'must be https'],
    ['https://user:pass@hooks.example.com/', 'must not carry a user name or password'],
    ['https://user@hooks.example.com/', 'must not carry a user name or password'],
    ['not a url', 'must be an absolute URL'],
    ['ftp://hooks.example.com/', 'must be https'],
    ['https://127.0.0.1/', 'a loopback address'],
    ['https://127.1/', 'a loopback address'],
    ['https://2130706433/', 'a loopback address'],
    ['https://0x7f000001/', 'a loopback address'],
    ['https://[::1]/', 'a loopback address'],
    ['https://[::ffff:127.0.0.1]/', 'a loopback address'],
    ['https://[::ffff:10.0.0.1]/', 'a private address'],
    ['https://[64:ff9b::192.168.0.1]/', 'a private address'],
    ['https://10.1.2.3/', 'a private address'],
    ['https://172.16.0.1/', 'a private address'],
    ['https://172.31.255.255/', 'a private address'],
    ['https://192.168.1.1/', 'a private address'],
    ['https://100.64.0.1/', 'a shared (carrier NAT) address'],
    ['https://169.254.169.254/latest/meta-data', 'a cloud metadata address'],
    ['https://169.254.10.1/', 'a link-local address'],
    ['https://[fe80::1]/', 'a link-local address'],
    ['https://[fd00:ec2::254]/', 'a cloud metadata address'],
    ['https://[fc00::1]/', 'a private address'],
    ['https://0.0.0.0/', 'a reserved address'],
    ['https://[::]/', 'a reserved address'],
    ['https://224.0.0.1/', 'a multicast address'],
    ['https://metadata.google.internal/', 'a cloud metadata name'],
    ['https://metadata/', 'a cloud metadata name'],
    ['https://localhost/', 'a name of a local network'],
    ['https://api.localhost/', 'a name of a local network'],
    ['https://printer.local/', 'a name of a local network'],
    ['https://db.internal/', 'a name of a local network'],
    ['https://hooks/', 'a name without a domain'],
    ['https://[::ffff:169.254.169.254]/', 'a cloud metadata address (169.254.169.254 inside [::ffff:a9fe:a9fe])'],
    ['https://[::7f00:1]/', 'a loopback address (127.0.0.1 inside [::7f00:1])'],
    ['https://[64:ff9b:1::a00:1]/', 'a private address (10.0.0.1 inside [64:ff9b:1::a00:1])'],
    ['https://[2002:a9fe:a9fe::]/', 'a cloud metadata address (169.254.169.254 inside [2002:a9fe:a9fe::])'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'a loopback address (127.0.0.1 inside'],
    ['https://[::ffff:0:a00:1]/', 'a private address (10.0.0.1 inside [::ffff:0:a00:1])'],
    ['https://192.0.2.10/', 'a documentation address'],
    ['https://198.51.100.10/', 'a documentation address'],
    ['https://203.0.113.10/', 'a documentation address'],
    ['https://[2001:db8::10]/', 'a documentation address'],
    ['https://[3fff:1::10]/', 'a documentation address'],
    ['https://198.18.0.10/', 'a benchmarking address'],
    ['https://[2001:2::10]/', 'a benchmarking address'],
    ['https://255.255.255.255/', 'a broadcast address'],
  ])('refuses %s: %s', (url, reason) => {
    expect(refused(url)).toContain(reason);
  });

  it('takes 172.32.0.1, just outside the private 172.16.0.0/12', () => {
    expect(refused('https://172.32.0.1/')).toBe('');
  });

  it('takes a public IPv4 address behind the well-known NAT64 prefix, the one embedding form that is global', () => {
    expect(refused('https://[64:ff9b::808:808]/')).toBe('');
    expect(refused('https://[64:ff9b::a00:1]/')).toContain('a private address (10.0.0.1 inside');
  });

  it('allows http://127.0.0.1:<port> in development only', () => {
    expect(checkEndpointUrl('http://127.0.0.1:8787/hook', 'development')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8787/hook',
    });
    expect(refused('http://127.0.0.1:8787/hook', 'production')).toBe('must be https');
    expect(refused('http://localhost:8787/hook', 'development')).toContain('must be https');
    expect(refused('http://10.0.0.1/hook', 'development')).toContain('must be https');
    expect(refused('https://10.0.0.1/hook', 'development')).toContain('a private address');
  });
});
