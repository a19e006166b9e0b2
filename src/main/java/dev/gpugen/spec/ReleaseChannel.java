package dev.gpugen.spec;

/**
 * The GKE release channel a cluster gpugen creates is enrolled in ({@code
 * cloud.gke.releaseChannel};
 * https://cloud.google.com/kubernetes-engine/docs/concepts/release-channels). Every channel keeps
 * node auto-upgrade on; gpugen holds the versions with a maintenance exclusion instead.
 */
public enum ReleaseChannel implements Keyword {
  RAPID("rapid"),
  REGULAR("regular"),
  STABLE("stable"),
  EXTENDED("extended");

  private final String spelling;

  ReleaseChannel(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** The channel as GKE's API and the google provider's {@code release_channel.channel} name it. */
  public String api() {
    return name();
  }

  /** The spelling, so a message or a string built from the value reads as the spec does. */
  @Override
  public String toString() {
    return spelling;
  }
}
