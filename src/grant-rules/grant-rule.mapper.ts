import { GrantRuleResponseDto } from './dto/grant-rule-response.dto';
import { GrantRuleEntity } from './grant-rule.entity';

export function toGrantRuleResponse(rule: GrantRuleEntity): GrantRuleResponseDto {
  return {
    id: rule.id,
    trigger_product_id: rule.trigger_product_id,
    grant_product_id: rule.grant_product_id,
    access_duration_days: rule.access_duration_days,
    enabled: rule.enabled,
    created_at: rule.created_at.toISOString(),
    updated_at: rule.updated_at.toISOString(),
  };
}
