package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;

/**
 * A region a cloud provider offers, and the zone suffixes it has where they are the same for every
 * account.
 *
 * @param provider {@code aws} or {@code gcp}
 * @param name the region code, e.g. {@code us-east-1} or {@code us-central1}
 * @param zones the zone suffixes ({@code a}, {@code b}, ... for GCP's {@code us-central1-a}); empty
 *     where the provider maps zone names per account (AWS), so only the region part is checked
 * @param sources the URLs the values come from
 */
public record CloudRegion(String provider, String name, List<String> zones, List<String> sources)
    implements CompatRow {
  public CloudRegion {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(name, "name");
    zones = List.copyOf(zones);
    sources = List.copyOf(sources);
  }

  /** The zone names of this region, e.g. {@code us-central1-a}; empty when not listed. */
  public List<String> zoneNames() {
    return zones.stream().map(z -> name + "-" + z).toList();
  }

  @Override
  public String key() {
    return provider + ":" + name;
  }
}
