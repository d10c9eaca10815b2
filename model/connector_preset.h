/*
 * connector_preset.h — the vLLM connector presets srtctl knows by name
 * (`connector: lmcache-mp`): name, label and what each does.  Data of the
 * recipe, so it lives in model/: validation checks a name against it without
 * reaching up into render/, which builds each preset's payload
 * (render/connector.h).
 */
#ifndef SRT_CONNECTOR_PRESET_H
#define SRT_CONNECTOR_PRESET_H

/* The vLLM connector presets (spec §3.2), in the order an editor lists them;
 * the table ends with a NULL name.  The one list of presets: render, the
 * validator and the TUI's connector editor all read it. */
struct connector_preset_info {
	const char *name;    /* the `connector` value ("lmcache-mp") */
	const char *label;   /* a short label for lists */
	const char *explain; /* what it does and what it needs, one or two lines */
	int multi_member;    /* needs no topology, so a MultiConnector may hold it */
};
extern const struct connector_preset_info connector_presets[];

/* Preset name of a vLLM connector text ("lmcache-mp"; case-insensitive), or
 * NULL for raw JSON. */
const char *connector_preset(const char *connector);

#endif
