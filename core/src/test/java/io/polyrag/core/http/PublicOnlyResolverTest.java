package io.polyrag.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The JVM-wide resolver that keeps guarded hosts (web sites, buckets users name) on public addresses. */
class PublicOnlyResolverTest {
    @Test
    void the_resolver_keeps_public_addresses_of_guarded_names_and_leaves_the_rest_alone() throws Exception {
        java.util.function.Supplier<java.util.stream.Stream<java.net.InetAddress>> answer = () -> {
            try {
                return java.util.stream.Stream.of(java.net.InetAddress.getByAddress(new byte[] {10, 0, 0, 7}),
                        java.net.InetAddress.getByAddress(new byte[] {93, (byte) 184, (byte) 215, 14}));
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        };
        assertThat(PublicOnlyResolver.filter("free.example", answer.get()).toList()).hasSize(2);
        PublicOnlyResolver.guard("Mixed.Example");
        assertThat(PublicOnlyResolver.filter("mixed.example", answer.get()).map(java.net.InetAddress::getHostAddress)
                .toList()).containsExactly("93.184.215.14");
        PublicOnlyResolver.guard("private.example");
        assertThatThrownBy(() -> PublicOnlyResolver.filter("private.example", answer.get().limit(1)))
                .hasMessageContaining("resolves only to addresses that are not public").hasMessageNotContaining("10.0.0.7");
        assertThat(java.util.ServiceLoader.load(java.net.spi.InetAddressResolverProvider.class).stream()
                .<Class<?>>map(p -> p.type()).toList()).as("installed for the whole JVM")
                .contains(PublicOnlyResolver.class);
    }

    @Test
    void addresses_that_carry_a_private_ipv4_or_are_reserved_are_not_public() throws Exception {
        for (String a : List.of("127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
                "0.1.2.3", "198.18.0.1", "240.0.0.1", "::1", "fc00::1", "fe80::1", "64:ff9b::a00:1", "::a00:1")) {
            assertThat(PublicOnlyResolver.isPublic(java.net.InetAddress.getByName(a))).as(a).isFalse();
        }
        for (String a : List.of("93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "64:ff9b::808:808")) {
            assertThat(PublicOnlyResolver.isPublic(java.net.InetAddress.getByName(a))).as(a).isTrue();
        }
    }
    /**
     * A DNS answer of an IPv4-mapped address (::ffff:169.254.169.254) stays an IPv6 address, as the native lookup
     * hands it over (only literals become IPv4 ones): judged by the IPv4 address it carries, as are 6to4 and local
     * NAT64. A tenant's source naming such a host reached the cloud's metadata service.
     */
    @Test
    void mapped_6to4_and_local_nat64_addresses_are_judged_by_the_ipv4_they_carry() throws Exception {
        for (int[] v4 : List.of(new int[] {169, 254, 169, 254}, new int[] {127, 0, 0, 1}, new int[] {10, 0, 0, 7})) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            byte[] sixToFour = new byte[16];
            sixToFour[0] = 0x20;
            sixToFour[1] = 0x02;
            byte[] localNat64 = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
            for (int i = 0; i < 4; i++) {
                mapped[12 + i] = (byte) v4[i];
                sixToFour[2 + i] = (byte) v4[i];
                localNat64[12 + i] = (byte) v4[i];
            }
            for (byte[] b : List.of(mapped, sixToFour, localNat64)) {
                java.net.InetAddress a = java.net.Inet6Address.getByAddress(null, b, null);
                assertThat(a).isInstanceOf(java.net.Inet6Address.class);
                assertThat(PublicOnlyResolver.isPublic(a)).as(a.getHostAddress()).isFalse();
            }
            PublicOnlyResolver.guard("mapped.example");
            assertThatThrownBy(() -> PublicOnlyResolver.filter("mapped.example", java.util.stream.Stream.of(
                    java.net.Inet6Address.getByAddress(null, mapped, null))))
                    .hasMessageContaining("not public");
        }
        byte[] publicMapped = new byte[16];
        publicMapped[10] = (byte) 0xff;
        publicMapped[11] = (byte) 0xff;
        publicMapped[12] = 8;
        publicMapped[13] = 8;
        publicMapped[14] = 8;
        publicMapped[15] = 8;
        assertThat(PublicOnlyResolver.isPublic(java.net.Inet6Address.getByAddress(null, publicMapped, null))).isTrue();
        // Local-use NAT64 with the IPv4 address in RFC 6052's /48 place (169.254.169.254 there): never public.
        assertThat(PublicOnlyResolver.isPublic(java.net.InetAddress.getByName("64:ff9b:1:a9fe:a9:fe00:808:808")))
                .isFalse();
    }
}
