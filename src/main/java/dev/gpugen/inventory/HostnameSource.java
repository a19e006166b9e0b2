package dev.gpugen.inventory;

import java.util.List;
import java.util.Optional;

/**
 * One entry of the {@code hostnames} preference list, named as {@code amazon.aws.aws_ec2} names
 * them: {@code tag:KEY}, {@code instance-id}, {@code private-dns-name}, {@code private-ip-address},
 * {@code ip-address} (the public IPv4 address).
 *
 * @param setting the entry as written
 * @param tagKey the tag key of a {@code tag:KEY} entry
 */
public record HostnameSource(String setting, Optional<String> tagKey) {
  /** The entries other than {@code tag:KEY}. */
  public static final List<String> FIXED =
      List.of("instance-id", "private-dns-name", "private-ip-address", "ip-address");

  /** What {@code "hostname": "name-tag"} (and no setting at all) means. */
  public static final List<HostnameSource> NAME_TAG_THEN_ID =
      List.of(of("tag:Name").orElseThrow(), of("instance-id").orElseThrow());

  /** The entry {@code text}, or empty if it is none of the known forms. */
  public static Optional<HostnameSource> of(String text) {
    if (text.startsWith("tag:") && text.length() > 4) {
      return Optional.of(new HostnameSource(text, Optional.of(text.substring(4))));
    }
    return FIXED.contains(text)
        ? Optional.of(new HostnameSource(text, Optional.empty()))
        : Optional.empty();
  }

  /** This entry's value for one host (already validated by the builder), if it has one. */
  Optional<String> valueOf(
      HostFacts host,
      Optional<String> privateIp,
      Optional<String> publicIp,
      Optional<String> privateDns) {
    if (tagKey.isPresent()) {
      return host.tag(tagKey.get());
    }
    return switch (setting) {
      case "instance-id" -> Optional.of(host.instanceId());
      case "private-dns-name" -> privateDns;
      case "private-ip-address" -> privateIp;
      case "ip-address" -> publicIp;
      default -> Optional.empty();
    };
  }
}
