package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Each loop of {@link Formats} accepts exactly what its pattern in InventoryBuilder matches. */
class FormatsTest {
  private static void same(Pattern pattern, Predicate<String> loop, String s) {
    assertEquals(pattern.matcher(s).matches(), loop.test(s), () -> pattern + " on \"" + s + "\"");
  }

  @Property(tries = 3000)
  void instanceIds(@ForAll("ids") String s) {
    same(InventoryBuilder.INSTANCE_ID, Formats::instanceId, s);
  }

  @Property(tries = 3000)
  void ipv4Addresses(@ForAll("addresses") String s) {
    same(InventoryBuilder.IPV4, Formats::ipv4, s);
  }

  @Property(tries = 3000)
  void dnsNames(@ForAll("names") String s) {
    same(InventoryBuilder.DNS_NAME, Formats::dnsName, s);
  }

  @Property(tries = 3000)
  void hostNames(@ForAll("names") String s) {
    same(InventoryBuilder.HOSTNAME, Formats::hostname, s);
  }

  @Property(tries = 2000)
  void launchTimesAsIsoInstantWritesThem(
      @ForAll("seconds") long seconds, @ForAll("nanos") int nanos) {
    java.time.Instant t = java.time.Instant.ofEpochSecond(seconds, nanos);
    assertEquals(
        java.time.format.DateTimeFormatter.ISO_INSTANT.format(t), InventoryBuilder.isoInstant(t));
  }

  @Provide
  Arbitrary<Long> seconds() {
    // Year -100 to 12000: the formatter's own branch for years without four digits too.
    return Arbitraries.longs().between(-65_000_000_000L, 316_000_000_000L);
  }

  @Provide
  Arbitrary<Integer> nanos() {
    return Arbitraries.oneOf(
        Arbitraries.just(0),
        Arbitraries.integers().between(0, 999).map(m -> m * 1_000_000),
        Arbitraries.integers().between(0, 999_999).map(u -> u * 1000),
        Arbitraries.integers().between(0, 999_999_999));
  }

  @Test
  void theEdges() {
    for (String s :
        List.of(
            "",
            "i-0123456789abcdef0",
            "i-01234567",
            "i-0123456789ABCDEF0",
            "i-012345678",
            "0.0.0.0",
            "255.255.255.255",
            "256.1.1.1",
            "01.1.1.1",
            "1.1.1",
            "1.1.1.1.",
            "1..1.1",
            "1.1.1.1\n",
            "a",
            "a-",
            "-a",
            "a.-b",
            "a..b",
            "a.",
            "a".repeat(63) + ".b",
            "a".repeat(64) + ".b",
            ("a".repeat(63) + ".").repeat(3) + "a".repeat(61),
            ("a".repeat(63) + ".").repeat(3) + "a".repeat(62),
            "ip-10-0-1-7.ec2.internal",
            "demo_host.x",
            "x".repeat(253),
            "x".repeat(254),
            "caf\u00e9",
            "a\nb")) {
      same(InventoryBuilder.INSTANCE_ID, Formats::instanceId, s);
      same(InventoryBuilder.IPV4, Formats::ipv4, s);
      same(InventoryBuilder.DNS_NAME, Formats::dnsName, s);
      same(InventoryBuilder.HOSTNAME, Formats::hostname, s);
    }
  }

  @Provide
  Arbitrary<String> ids() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars("i-0123456789abcdefAF.g").ofMinLength(0).ofMaxLength(21),
        Arbitraries.strings()
            .withChars("0123456789abcdefA")
            .ofMinLength(7)
            .ofMaxLength(18)
            .map(h -> "i-" + h));
  }

  @Provide
  Arbitrary<String> addresses() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars("0123456789.").ofMinLength(0).ofMaxLength(17),
        Arbitraries.integers()
            .between(0, 300)
            .list()
            .ofSize(4)
            .map(l -> String.join(".", l.stream().map(String::valueOf).toList())),
        Arbitraries.strings().withChars("0125.a \n").ofMinLength(0).ofMaxLength(16));
  }

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars("aZ09-._\n\u00e9").ofMinLength(0).ofMaxLength(12),
        Arbitraries.strings().withChars("ab-.").ofMinLength(0).ofMaxLength(300),
        Arbitraries.strings()
            .withChars("ab-")
            .ofMinLength(55)
            .ofMaxLength(70)
            .list()
            .ofMinSize(1)
            .ofMaxSize(5)
            .map(l -> String.join(".", l)));
  }
}
