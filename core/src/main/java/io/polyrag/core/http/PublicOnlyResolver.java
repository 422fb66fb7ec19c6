package io.polyrag.core.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The JVM's name resolver (installed through {@link InetAddressResolverProvider}), with one addition: the hosts of
 * web sources that may reach public addresses only are resolved to their public addresses, and a host left with none
 * does not resolve. The check happens in the lookup itself — the one the HTTP client makes when it connects — so a
 * name that answers a public address when a source is registered and a private one at fetch time (DNS rebinding)
 * still cannot reach the private network. Every other lookup is the built-in resolver's, untouched. It lives in core
 * because it is the JVM's (one resolver, installed once) and every connector that fetches from an address a user
 * gave — web sites, buckets — goes through it.
 */
public final class PublicOnlyResolver extends InetAddressResolverProvider {
    private static final System.Logger LOG = System.getLogger(PublicOnlyResolver.class.getName());
    private static final Set<String> GUARDED = ConcurrentHashMap.newKeySet();
    private static final Map<String, String> REFUSED = new ConcurrentHashMap<>();

    /** From now on, this host resolves to public addresses only, in every lookup of this JVM. */
    public static void guard(String host) {
        GUARDED.add(host.toLowerCase(Locale.ROOT));
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                return filter(host, builtin.lookupByName(host, policy));
            }

            @Override
            public String lookupByAddress(byte[] address) throws UnknownHostException {
                return builtin.lookupByAddress(address);
            }
        };
    }

    public static boolean guarded(String host) {
        return GUARDED.contains(host.toLowerCase(Locale.ROOT));
    }

    /**
     * Why the last lookup of a guarded host was refused, or null (the JDK passes the resolver's exception on without
     * its message, so callers ask here to say why a host did not resolve).
     */
    public static String refused(String host) {
        return host == null ? null : REFUSED.get(host.toLowerCase(Locale.ROOT));
    }

    /** What a lookup of {@code host} answers: all of them, or for a guarded host its public ones only. */
    public static Stream<InetAddress> filter(String host, Stream<InetAddress> all) throws UnknownHostException {
        if (!GUARDED.contains(host.toLowerCase(Locale.ROOT))) {
            return all;
        }
        List<InetAddress> addresses = all.toList();
        List<InetAddress> allowed = addresses.stream().filter(PublicOnlyResolver::isPublic).toList();
        if (allowed.isEmpty()) {
            // No address in it: it reaches a tenant in its sync's errors.
            String why = host + " resolves only to addresses that are not public";
            LOG.log(System.Logger.Level.INFO, why + " (" + addresses.stream().map(InetAddress::getHostAddress)
                    .toList() + "): refused");
            REFUSED.put(host.toLowerCase(Locale.ROOT), why);
            throw new UnknownHostException(why);
        }
        REFUSED.remove(host.toLowerCase(Locale.ROOT));
        return allowed.stream();
    }

    @Override
    public String name() {
        return "polyrag-public-only";
    }

    /**
     * Whether an address is on the public internet: not loopback, private, link-local (cloud metadata endpoints),
     * carrier-grade NAT, unique-local, multicast, unspecified or in 0.0.0.0/8.
     */
    public static boolean isPublic(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length == 16 && (b[0] & 0xff) == 0 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff
                && (b[3] & 0xff) == 0x9b && b[4] == 0 && b[5] == 1) {
            return false; // 64:ff9b:1::/48, local-use NAT64: its IPv4 address may sit at any of RFC 6052's places
        }
        byte[] carried = b.length == 16 ? embeddedIpv4(b) : null;
        if (carried != null) {
            // Judged by the IPv4 address they carry. A DNS answer of ::ffff:169.254.169.254 stays an IPv6 address
            // (only literals are turned into IPv4 ones), which no check below took for link-local, and a dual-stack
            // socket reaches it over IPv4: a tenant's web source could read the cloud's metadata service.
            try {
                return isPublic(InetAddress.getByAddress(carried));
            } catch (UnknownHostException e) {
                return false;
            }
        }
        int b0 = b[0] & 0xff;
        int b1 = b[1] & 0xff;
        boolean v4 = b.length == 4;
        boolean cgnat = v4 && b0 == 100 && (b1 & 0xc0) == 64;
        boolean zero = v4 && b0 == 0;
        boolean benchmarking = v4 && b0 == 198 && (b1 & 0xfe) == 18;
        boolean reserved = v4 && b0 >= 240;
        boolean uniqueLocal = !v4 && (b0 & 0xfe) == 0xfc;
        return !(a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress()
                || a.isMulticastAddress() || cgnat || zero || benchmarking || reserved || uniqueLocal);
    }

    /**
     * The IPv4 address an IPv6 one carries, or null: ::a.b.c.d (IPv4-compatible), ::ffff:a.b.c.d (IPv4-mapped),
     * 64:ff9b::/96 (NAT64), 2002:aabb:ccdd::/48 (6to4).
     */
    private static byte[] embeddedIpv4(byte[] b) {
        boolean zeros = true;
        for (int i = 0; i < 10; i++) {
            zeros &= b[i] == 0;
        }
        boolean mapped = zeros && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = zeros && b[10] == 0 && b[11] == 0
                && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && (b[15] == 0 || b[15] == 1));
        boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff
                && (b[3] & 0xff) == 0x9b;
        boolean wellKnown = nat64;
        for (int i = 4; i < 12 && wellKnown; i++) {
            wellKnown = b[i] == 0;
        }
        if (mapped || compatible || wellKnown) {
            return Arrays.copyOfRange(b, 12, 16);
        }
        if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
            return Arrays.copyOfRange(b, 2, 6);
        }
        return null;
    }

    /**
     * Why {@code host} may not be reached, or null: it does not resolve, or (unless {@code allowPrivate}) one of its
     * addresses is not public. A host found public is guarded from then on (every later lookup of it in this JVM keeps
     * public addresses only); one found private is refused and never guarded, so naming it cannot change how the
     * server resolves its own services.
     *
     * @param what who is refused, for the message ("web sources")
     * @param allowance the setting that lets them reach private addresses ({@code POLYRAG_SYNC_WEB_ALLOW_PRIVATE})
     */
    public static String refusal(String host, boolean allowPrivate, String what, String allowance) {
        // One answer whether the name does not resolve or resolves to a private address, and no address in it: a
        // tenant registering sources listed the cluster's service names and their private addresses. The operator's
        // log has which.
        String refusal = "the host " + host + " is not a public address, or does not resolve: " + what + " reach the "
                + "public internet only (" + allowance + "=true lets them reach this network)";
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            if (allowPrivate) {
                return "the host " + host + " does not resolve"; // nothing private to keep from anyone
            }
            String why = refused(host);
            LOG.log(System.Logger.Level.INFO, "refused " + host + " for " + what + ": " + (why != null ? why
                    : "it does not resolve"));
            return refusal;
        }
        if (allowPrivate) {
            return null;
        }
        for (InetAddress a : addresses) {
            if (!isPublic(a)) {
                LOG.log(System.Logger.Level.INFO, "refused " + host + " for " + what + ": it is at "
                        + a.getHostAddress() + ", not a public address");
                return refusal;
            }
        }
        guard(host);
        return null;
    }
}
