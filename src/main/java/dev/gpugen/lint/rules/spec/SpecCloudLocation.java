package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A cloud cluster needs a region, and its zone must lie in that region. */
public final class SpecCloudLocation extends Rule {
  public SpecCloudLocation() {
    super(
        "spec-cloud-location",
        Severity.ERROR,
        "a cloud cluster lacks a region, or its zone is in another region",
        "AWS and GCP clusters are created in one region, and all nodes in one zone so the"
            + " placement group and the Lustre file system are reachable at full bandwidth. Set"
            + " cloud.region, and a cloud.availabilityZone that starts with it (us-east-1 →"
            + " us-east-1a).");
  }

  @Override
  public void check(ClusterSpec spec, Findings findings) {
    ClusterSpec.Cloud c = spec.cloud();
    if (c.provider().equals("static")) {
      return;
    }
    if (c.region().isEmpty()) {
      findings.report(
          SpecPath.of("cloud"),
          "cloud.region is required for provider " + c.provider(),
          "add region: us-east-1 (or your region) under cloud");
      return;
    }
    if (c.provider().equals("gcp") && (c.project().isEmpty() || c.gke().isEmpty())) {
      findings.report(
          SpecPath.of("cloud"),
          "cloud.project and cloud.gke are required for provider gcp",
          "add project: my-project and gke: {cluster: NAME} under cloud");
    }
    String region = c.region().get();
    c.availabilityZone()
        .filter(z -> !z.startsWith(region))
        .ifPresent(
            z ->
                findings.report(
                    SpecPath.of("cloud", "availabilityZone"),
                    "cloud.availabilityZone " + z + " is not in region " + region,
                    "use a zone of " + region + ", e.g. " + region + "a"));
  }
}
