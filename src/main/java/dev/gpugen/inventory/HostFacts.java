package dev.gpugen.inventory;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the inventory needs to know of one EC2 instance, as DescribeInstances reported it. Every
 * string here came from outside gpugen and is treated as untrusted.
 *
 * @param instanceId e.g. {@code i-0123456789abcdef0}
 * @param region the region it was found in
 * @param instanceType e.g. {@code p4d.24xlarge}
 * @param availabilityZone e.g. {@code us-east-1a}
 * @param state e.g. {@code running}
 * @param lifecycle {@code spot}, {@code scheduled}, {@code capacity-block}; empty for on-demand
 * @param privateIp the primary private IPv4 address
 * @param publicIp the public IPv4 address
 * @param privateDns the private DNS name
 * @param launchTime when it was launched
 * @param tags every tag, key to value
 * @param imageId the AMI it was launched from
 * @param placementGroup the name of its placement group, if it is in one
 * @param ownerId the account that owns its reservation (the reservation's ownerId)
 */
public record HostFacts(
    String instanceId,
    String region,
    String instanceType,
    Optional<String> availabilityZone,
    String state,
    Optional<String> lifecycle,
    Optional<String> privateIp,
    Optional<String> publicIp,
    Optional<String> privateDns,
    Optional<Instant> launchTime,
    Map<String, String> tags,
    Optional<String> imageId,
    Optional<String> placementGroup,
    Optional<String> ownerId) {
  public HostFacts {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(instanceType, "instanceType");
    Objects.requireNonNull(availabilityZone, "availabilityZone");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lifecycle, "lifecycle");
    Objects.requireNonNull(privateIp, "privateIp");
    Objects.requireNonNull(publicIp, "publicIp");
    Objects.requireNonNull(privateDns, "privateDns");
    Objects.requireNonNull(launchTime, "launchTime");
    tags = Map.copyOf(tags);
    Objects.requireNonNull(imageId, "imageId");
    Objects.requireNonNull(placementGroup, "placementGroup");
    Objects.requireNonNull(ownerId, "ownerId");
  }

  /** The value of tag {@code key}, if the instance has it. */
  public Optional<String> tag(String key) {
    return Optional.ofNullable(tags.get(key));
  }
}
