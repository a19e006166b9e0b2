package dev.gpugen.inventory;

/** How an inventory host is named. */
public enum HostnamePreference {
  /** The {@code Name} tag when it is unique in the result and a plain host name, else the id. */
  NAME_TAG("name-tag"),
  /** Always the EC2 instance id. */
  INSTANCE_ID("instance-id");

  private final String setting;

  HostnamePreference(String setting) {
    this.setting = setting;
  }

  /** The value as written in {@code gpugen-inventory.json}. */
  public String setting() {
    return setting;
  }
}
