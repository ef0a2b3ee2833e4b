import { FREJA_START_OPTION_FIELDS, FrejaStartOptionsDto } from './freja/freja-start-options.dto.js';

/**
 * The start-body fields that belong to one provider, each contributed by its folder (docs/providers.md,
 * "Adding a provider"): the start bodies extend this class, so the request pipe checks their shape and
 * the OpenAPI document lists them. A second provider with options of its own makes this
 * `IntersectionType(FrejaStartOptionsDto, ItsOptionsDto)` and adds its fields below.
 */
export class ProviderStartOptionsDto extends FrejaStartOptionsDto {}

const PROVIDER_START_OPTION_FIELDS: readonly string[] = [...FREJA_START_OPTION_FIELDS];

/** The provider options a start body carries, for StartOrderRequest.options; each provider reads its own. */
export function providerStartOptionsOf(body: object): Readonly<Record<string, unknown>> {
  const options: Record<string, unknown> = {};
  for (const field of PROVIDER_START_OPTION_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined) options[field] = value;
  }
  return options;
}
