package dev.gpugen.lint.rules.spec;

import dev.gpugen.compat.CloudRegion;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import dev.gpugen.spec.yaml.Suggest;
import java.util.List;
import java.util.Optional;

/**
 * A cloud cluster needs a region the provider has, and its zone must lie in that region. The
 * provider's regions (and GCP's zones) come from the compatibility table, with their sources.
 */
public final class SpecCloudLocation extends Rule {
  public SpecCloudLocation() {
    super(
        "spec-cloud-location",
        Severity.ERROR,
        "a cloud cluster lacks a region, names one its provider does not have, or its zone is"
            + " not in it",
        "AWS and GCP clusters are created in one region, and all nodes in one zone so the"
            + " placement group and the Lustre file system are reachable at full bandwidth. Set"
            + " cloud.region to a region of the provider (AWS writes us-east-1, GCP us-central1),"
            + " and a cloud.availabilityZone in it: on AWS the region plus a letter (us-east-1a;"
            + " which letters an account has differs per account, so gpugen checks only the"
            + " region part), on GCP one of the region's zones (us-central1-a). The lists are in"
            + " gpugen's compatibility table. Sources:"
            + " https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-regions.html,"
            + " https://docs.aws.amazon.com/ram/latest/userguide/working-with-az-ids.html,"
            + " https://cloud.google.com/compute/docs/regions-zones");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Cloud c = spec.cloud();
    if (c.provider() == Provider.STATIC) {
      return;
    }
    if (c.region().isEmpty()) {
      findings.report(
          SpecPath.of("cloud"),
          "cloud.region is required for provider " + c.provider(),
          "add region: "
              + (c.provider() == Provider.GCP ? "us-central1" : "us-east-1")
              + " (or your region) under cloud");
      return;
    }
    if (c.provider() == Provider.GCP && (c.project().isEmpty() || c.gke().isEmpty())) {
      findings.report(
          SpecPath.of("cloud"),
          "cloud.project and cloud.gke are required for provider gcp",
          "add project: my-project and gke: {cluster: NAME} under cloud");
    }
    CompatTable table = plan.compat();
    Provider provider = c.provider();
    String label = provider == Provider.GCP ? "GCP" : "AWS";
    String region = c.region().get();
    Optional<CloudRegion> known = table.region(provider.spelling(), region);
    if (known.isEmpty()) {
      List<String> names =
          table.regions(provider.spelling()).stream().map(CloudRegion::name).toList();
      String other = (provider == Provider.GCP ? Provider.AWS : Provider.GCP).spelling();
      String otherLabel = provider == Provider.GCP ? "an AWS" : "a GCP";
      String suggestion = Suggest.closest(region, names);
      findings.report(
          SpecPath.of("cloud", "region"),
          "cloud.region "
              + region
              + " is not "
              + (provider == Provider.GCP ? "a GCP" : "an AWS")
              + " region"
              + (table.region(other, region).isPresent() ? " (it is " + otherLabel + " one)" : "")
              + (suggestion == null ? "" : "; did you mean " + suggestion + "?"),
          suggestion == null
              ? label + " regions: " + String.join(", ", names)
              : "write region: " + suggestion);
      return;
    }
    String zone = c.availabilityZone().orElse(null);
    if (zone == null) {
      return;
    }
    SpecPath at = SpecPath.of("cloud", "availabilityZone");
    String example = provider == Provider.GCP ? exampleGcpZone(known.get()) : region + "a";
    if (!zone.startsWith(region)) {
      findings.report(
          at,
          "cloud.availabilityZone " + zone + " is not in region " + region,
          "use a zone of " + region + ", e.g. " + example);
      return;
    }
    String suffix = zone.substring(region.length());
    if (provider == Provider.GCP) {
      List<String> zones = known.get().zoneNames();
      // A single-letter zone must be one GCP lists; longer suffixes are special zones we do not
      // list, and are left to the API.
      if (suffix.matches("-[a-z]") && !zones.contains(zone)) {
        String suggestion = Suggest.closest(zone, zones);
        findings.report(
            at,
            "cloud.availabilityZone "
                + zone
                + " is not a zone of "
                + region
                + (suggestion == null ? "" : "; did you mean " + suggestion + "?"),
            "zones of " + region + ": " + String.join(", ", zones));
      } else if (!suffix.startsWith("-")) {
        findings.report(
            at,
            "cloud.availabilityZone " + zone + " is not a GCP zone; did you mean " + example + "?",
            "a GCP zone is the region, '-' and a letter: " + String.join(", ", zones));
      }
    } else if (suffix.startsWith("-") && suffix.matches("-[a-z]")) {
      findings.report(
          at,
          "cloud.availabilityZone "
              + zone
              + " is not an AWS zone; did you mean "
              + region
              + suffix.substring(1)
              + "?",
          "an AWS Availability Zone is the region and a letter, without '-': " + example);
    }
  }

  private static String exampleGcpZone(CloudRegion region) {
    List<String> zones = region.zoneNames();
    return zones.isEmpty() ? region.name() + "-a" : zones.get(0);
  }
}
